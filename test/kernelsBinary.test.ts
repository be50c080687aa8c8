import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assembledSource, BINARY_MODULE_URL, binaryModuleText, compileKernels, compilePosteriorKernels, includedParts, lowerRelaxedMadd, POSTERIOR_BINARY_MODULE_URL,
  posteriorBinaryModuleText, type KernelBinaries,
} from '../scripts/kernelSource';
import { enableRelaxedSimd } from '../src/main/engineProcess';

/** packedProduct of one build on a memory of its own: a (m × k) · b (k × n), b packed as the engine packs it */
function runProduct(bytes: Uint8Array, a: Float32Array, b: Float32Array, m: number, k: number, n: number): Float32Array {
  const memory = new WebAssembly.Memory({ initial: 4 });
  const { packedProduct } = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), { env: { memory } }).exports as unknown as {
    packedProduct: (...args: number[]) => void;
  };
  const heap = new Float32Array(memory.buffer);
  const panels = Math.ceil(n / 8);
  const [at, packedAt, flagsAt, outAt, scratchAt] = [0, m * k, m * k + panels * k * 8, m * k + panels * k * 8 + panels, m * k + panels * k * 8 + panels + m * n];
  heap.set(a, at);
  for (let p = 0; p < panels; p++) {
    for (let r = 0; r < k; r++) for (let c = 0; c < 8; c++) heap[packedAt + (p * k + r) * 8 + c] = 8 * p + c < n ? b[r * n + 8 * p + c]! : 0;
  }
  new Int32Array(memory.buffer).fill(1, flagsAt, flagsAt + panels);
  packedProduct(at * 4, packedAt * 4, flagsAt * 4, m, k, n, 0, 0, 1, outAt * 4, scratchAt * 4);
  return heap.slice(outAt, outAt + m * n);
}

interface UnaryKernels {
  exp(src: number, dst: number, n: number): void;
  log(src: number, dst: number, n: number): void;
  expFlushed(src: number, dst: number, n: number, flush: number): void;
}

/** One op of one kdeKernels.wat build on a memory of its own, over xs. */
function runUnary(bytes: Uint8Array, op: (k: UnaryKernels, src: number, dst: number, n: number) => void, xs: Float32Array): Float32Array {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((xs.length * 8) / 65536) + 1 });
  const k = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), { env: { memory } }).exports as unknown as UnaryKernels;
  const heap = new Float32Array(memory.buffer);
  heap.set(xs, 0);
  op(k, 0, xs.length * 4, xs.length);
  return heap.slice(xs.length, 2 * xs.length);
}

/** distance in units in the last place between two float32 values of the same sign */
function ulps(a: number, b: number): number {
  const i = new Int32Array(new Float32Array([a, b]).buffer);
  return Math.abs(i[0]! - i[1]!);
}

describe("the engine's SIMD kernels", () => {
  let binaries: KernelBinaries;
  beforeAll(async () => {
    binaries = await compileKernels();
  });

  it('ship the binaries their WebAssembly text compiles to (run npm run build:kernels after editing a .wat)', async () => {
    const committed = await readFile(BINARY_MODULE_URL, 'utf8');
    expect(committed).toBe(binaryModuleText(binaries));
  });

  it("ship the posterior's binary its WebAssembly text compiles to (run npm run build:kernels after editing posteriorKernels.wat)", async () => {
    const committed = await readFile(POSTERIOR_BINARY_MODULE_URL, 'utf8');
    expect(committed).toBe(posteriorBinaryModuleText(await compilePosteriorKernels()));
  });

  it('build kdeKernels.wat from every part in kdeKernels/, each once (a part left out would be dropped from the binary)', async () => {
    const simd = new URL('../src/main/engine/simd/', import.meta.url);
    const included = includedParts(await readFile(new URL('kdeKernels.wat', simd), 'utf8'));
    const onDisk = (await readdir(new URL('kdeKernels/', simd))).filter((f) => f.endsWith('.wat')).map((f) => `kdeKernels/${f}`);
    expect([...included].sort()).toEqual(onDisk.sort());
    expect(new Set(included).size).toBe(included.length);
  });

  it('put each included part in place of its line, and refuse a part included twice or a part that includes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kernel-parts-'));
    try {
      await writeFile(join(dir, 'a.wat'), '  (func $a)\n');
      await writeFile(join(dir, 'nested.wat'), '  ;; include a.wat\n');
      await writeFile(join(dir, 'module.wat'), '(module\n  ;; include a.wat\n)\n');
      expect(await assembledSource(pathToFileURL(join(dir, 'module.wat')))).toBe('(module\n  (func $a)\n)\n');
      await writeFile(join(dir, 'twice.wat'), '(module\n  ;; include a.wat\n  ;; include a.wat\n)\n');
      await expect(assembledSource(pathToFileURL(join(dir, 'twice.wat')))).rejects.toThrow(/includes a\.wat twice/);
      await writeFile(join(dir, 'deep.wat'), '(module\n  ;; include nested.wat\n)\n');
      await expect(assembledSource(pathToFileURL(join(dir, 'deep.wat')))).rejects.toThrow(/includes another part/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lower a fused multiply-add to an add of a multiply, nested operands included', () => {
    expect(lowerRelaxedMadd('(local.set $c (f32x4.relaxed_madd (local.get $s) (v128.load offset=16 (local.get $pb)) (local.get $c)))')).toBe(
      '(local.set $c (f32x4.add (local.get $c) (f32x4.mul (local.get $s) (v128.load offset=16 (local.get $pb)))))',
    );
    expect(lowerRelaxedMadd('(f32x4.relaxed_madd (f32x4.relaxed_madd (local.get $a) (local.get $b) (local.get $c)) (local.get $d) (local.get $e))')).toBe(
      '(f32x4.add (local.get $e) (f32x4.mul (f32x4.add (local.get $c) (f32x4.mul (local.get $a) (local.get $b))) (local.get $d)))',
    );
    expect(lowerRelaxedMadd('(nothing to lower)')).toBe('(nothing to lower)');
    expect(() => lowerRelaxedMadd('(f32x4.relaxed_madd (local.get $a))')).toThrow(/three operands/);
  });

  it('compute exp and log within one ulp of float64 in both builds of kdeKernels.wat, subnormals included, the flushed exp with the bits of the general one', () => {
    expect(enableRelaxedSimd(() => WebAssembly.validate(binaries.kernelsRelaxed as Uint8Array<ArrayBuffer>))).toBe(true);
    // exp from the smallest subnormal result to the largest float; log from the smallest subnormal input up
    const expIn = Float32Array.from({ length: 200_003 }, (_, i) => -103.9 + (192.6 * i) / 200_002);
    const logIn = Float32Array.from({ length: 200_003 }, (_, i) => Math.exp(-103 + (191 * i) / 200_002));
    for (const [build, bytes] of [['fused', binaries.kernelsRelaxed], ['plain', binaries.kernelsPlain]] as const) {
      const exp = runUnary(bytes, (k, a, b, n) => k.exp(a, b, n), expIn);
      const log = runUnary(bytes, (k, a, b, n) => k.log(a, b, n), logIn);
      let worstExp = 0;
      let worstLog = 0;
      for (let i = 0; i < expIn.length; i++) worstExp = Math.max(worstExp, ulps(exp[i]!, Math.fround(Math.exp(expIn[i]!))));
      for (let i = 0; i < logIn.length; i++) worstLog = Math.max(worstLog, ulps(log[i]!, Math.fround(Math.log(logIn[i]!))));
      expect(worstExp, `${build} exp`).toBeLessThanOrEqual(1);
      expect(worstLog, `${build} log`).toBeLessThanOrEqual(1);
      const negative = expIn.filter((x) => x <= 0);
      const general = runUnary(bytes, (k, a, b, n) => k.exp(a, b, n), negative);
      const flushed = runUnary(bytes, (k, a, b, n) => k.expFlushed(a, b, n, 2 ** -63), negative);
      for (let i = 0; i < negative.length; i++) expect(flushed[i], `${build} x=${negative[i]}`).toBe(general[i]! < 2 ** -63 ? 0 : general[i]);
    }
  });

  it('compute the same product in both builds of kdeProduct.wat, fused and plain, within float32 rounding', () => {
    expect(enableRelaxedSimd(() => WebAssembly.validate(binaries.productRelaxed as Uint8Array<ArrayBuffer>))).toBe(true);
    const [m, k, n] = [7, 37, 21];
    const a = Float32Array.from({ length: m * k }, (_, i) => ((i * 37) % 101) / 101);
    const b = Float32Array.from({ length: k * n }, (_, i) => ((i * 53) % 89) / 89);
    const fused = runProduct(binaries.productRelaxed, a, b, m, k, n);
    const plain = runProduct(binaries.productPlain, a, b, m, k, n);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let exact = 0;
        for (let q = 0; q < k; q++) exact += a[i * k + q]! * b[q * n + j]!;
        expect(Math.abs(fused[i * n + j]! - exact), `fused (${i}, ${j})`).toBeLessThanOrEqual(1e-6 * k * exact);
        expect(Math.abs(plain[i * n + j]! - exact), `plain (${i}, ${j})`).toBeLessThanOrEqual(1e-6 * k * exact);
      }
    }
  });
});

/**
 * Compiles the engine's WebAssembly text (src/main/engine/simd/*.wat) with wabt (a development
 * dependency). The engine does not compile at run time: `npm run build:kernels` writes the binaries
 * into kdeKernelsBinary.ts, and a test compiles the sources again and fails when they differ, so
 * the text stays the truth. kdeKernels.wat and kdeProduct.wat are each built twice: as written
 * (relaxed SIMD's fused multiply-add) and with every relaxed_madd lowered to an add of a multiply,
 * for engines without relaxed SIMD. The posterior's products (src/main/engine/posterior/posteriorKernels.wat)
 * go to a generated module of their own beside it, since the posterior imports nothing outside its
 * folder. A module may be written in parts: a line `;; include PATH.wat` of a source is replaced by
 * that file's text (PATH relative to the source), so kdeKernels.wat is its kernel groups in order.
 */
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';

const SIMD_DIR = new URL('../src/main/engine/simd/', import.meta.url);
export const BINARY_MODULE_URL = new URL('kdeKernelsBinary.ts', SIMD_DIR);
const POSTERIOR_DIR = new URL('../src/main/engine/posterior/', import.meta.url);
export const POSTERIOR_BINARY_MODULE_URL = new URL('posteriorKernelsBinary.ts', POSTERIOR_DIR);

export interface KernelBinaries {
  /** exp, log, the KDE kernels and the rest, with fused multiply-adds in the exp and log polynomials (needs relaxed SIMD) */
  kernelsRelaxed: Uint8Array;
  /** the same with each multiply-add as a multiply and an add (SIMD only) */
  kernelsPlain: Uint8Array;
  /** the packed product with fused multiply-adds (needs relaxed SIMD) */
  productRelaxed: Uint8Array;
  /** the packed product with each multiply-add as a multiply and an add (SIMD only) */
  productPlain: Uint8Array;
  /** the likelihood's term sum, a module with its own memory */
  likelihoodSum: Uint8Array;
}

const MADD = '(f32x4.relaxed_madd';

/** The end (exclusive) of the s-expression that opens at text[start] === '('. */
function expressionEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  throw new Error(`unbalanced parentheses after offset ${start}`);
}

/** `(f32x4.relaxed_madd A B C)` → `(f32x4.add C (f32x4.mul A B))` everywhere in the text. */
export function lowerRelaxedMadd(text: string): string {
  let out = '';
  let at = 0;
  for (let i = text.indexOf(MADD); i >= 0; i = text.indexOf(MADD, at)) {
    const end = expressionEnd(text, i);
    const args: string[] = [];
    let j = i + MADD.length;
    while (args.length < 3) {
      j = text.indexOf('(', j);
      if (j < 0 || j >= end) throw new Error(`f32x4.relaxed_madd at offset ${i} does not have three operands that are expressions`);
      const argEnd = expressionEnd(text, j);
      args.push(lowerRelaxedMadd(text.slice(j, argEnd)));
      j = argEnd;
    }
    out += `${text.slice(at, i)}(f32x4.add ${args[2]} (f32x4.mul ${args[0]} ${args[1]}))`;
    at = end;
  }
  return out + text.slice(at);
}

const INCLUDE_LINE = /^[ \t]*;; include (\S+\.wat)[ \t]*$/gm;

/** The paths a source includes, in order, relative to it. */
export function includedParts(text: string): string[] {
  return Array.from(text.matchAll(INCLUDE_LINE), (m) => m[1]!);
}

/**
 * A module's whole text: the source with each include line replaced by the text of the part it
 * names. A part includes nothing itself, and none is included twice (its functions would be
 * defined twice).
 */
export async function assembledSource(url: URL): Promise<string> {
  const text = await readFile(url, 'utf8');
  const seen = new Set<string>();
  const parts = new Map<string, string>();
  for (const path of includedParts(text)) {
    if (seen.has(path)) throw new Error(`${url.pathname} includes ${path} twice`);
    seen.add(path);
    const part = await readFile(new URL(path, url), 'utf8');
    if (includedParts(part).length > 0) throw new Error(`${path} (included by ${url.pathname}) includes another part; only a module's own source includes`);
    parts.set(path, part);
  }
  return text.replace(INCLUDE_LINE, (_line, path: string) => parts.get(path)!.replace(/\n$/, ''));
}

async function compile(name: string, source: string, relaxed: boolean): Promise<Uint8Array> {
  const wabt = await wabtInit();
  // bytes, not a string: wabt's lexer reads a string as Latin-1 and trips on the comments' UTF-8
  const module = wabt.parseWat(name, new TextEncoder().encode(source), { simd: true, relaxed_simd: relaxed });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

export async function compileKernels(): Promise<KernelBinaries> {
  const product = await assembledSource(new URL('kdeProduct.wat', SIMD_DIR));
  const kernels = await assembledSource(new URL('kdeKernels.wat', SIMD_DIR));
  return {
    kernelsRelaxed: await compile('kdeKernels.wat', kernels, true),
    kernelsPlain: await compile('kdeKernels.wat (lowered)', lowerRelaxedMadd(kernels), false),
    productRelaxed: await compile('kdeProduct.wat', product, true),
    productPlain: await compile('kdeProduct.wat (lowered)', lowerRelaxedMadd(product), false),
    likelihoodSum: await compile('likelihoodSum.wat', await assembledSource(new URL('likelihoodSum.wat', SIMD_DIR)), false),
  };
}

function base64Constant(name: string, bytes: Uint8Array): string {
  const lines = Buffer.from(bytes).toString('base64').match(/.{1,100}/g) ?? [];
  return [`export const ${name} =`, lines.map((l) => `  '${l}'`).join(' +\n') + ';'].join('\n');
}

/** The generated module's text for these binaries. */
export function binaryModuleText(b: KernelBinaries): string {
  return [
    '// Generated from kdeKernels.wat, kdeProduct.wat and likelihoodSum.wat by `npm run build:kernels`; do not edit. test/kernelsBinary.test.ts checks it matches the sources.',
    base64Constant('KDE_KERNELS_RELAXED_WASM_BASE64', b.kernelsRelaxed),
    base64Constant('KDE_KERNELS_PLAIN_WASM_BASE64', b.kernelsPlain),
    base64Constant('KDE_PRODUCT_RELAXED_WASM_BASE64', b.productRelaxed),
    base64Constant('KDE_PRODUCT_PLAIN_WASM_BASE64', b.productPlain),
    base64Constant('LIKELIHOOD_SUM_WASM_BASE64', b.likelihoodSum),
    '',
  ].join('\n');
}

/** The posterior's band and rank-one products (plain SIMD, float64 sums), a module with its own memory. */
export async function compilePosteriorKernels(): Promise<Uint8Array> {
  return compile('posteriorKernels.wat', await assembledSource(new URL('posteriorKernels.wat', POSTERIOR_DIR)), false);
}

/** The generated posterior module's text for its binary. */
export function posteriorBinaryModuleText(bytes: Uint8Array): string {
  return [
    '// Generated from posteriorKernels.wat by `npm run build:kernels`; do not edit. test/kernelsBinary.test.ts checks it matches the source.',
    base64Constant('POSTERIOR_KERNELS_WASM_BASE64', bytes),
    '',
  ].join('\n');
}

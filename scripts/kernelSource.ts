/**
 * Compiles the engine's src/main/engine/simd/kdeKernels.wat to WebAssembly with wabt (a development dependency). The engine does not
 * compile at run time: `npm run build:kernels` writes the binary into kdeKernelsBinary.ts, and a
 * test compiles the source again and fails when the two differ, so the source stays the truth.
 */
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';

export const WAT_URL = new URL('../src/main/engine/simd/kdeKernels.wat', import.meta.url);
export const BINARY_MODULE_URL = new URL('../src/main/engine/simd/kdeKernelsBinary.ts', import.meta.url);

export async function compileKernels(): Promise<Uint8Array> {
  const wabt = await wabtInit();
  // bytes, not a string: wabt's lexer reads a string as Latin-1 and trips on the comments' UTF-8
  const source = await readFile(WAT_URL);
  const module = wabt.parseWat('kdeKernels.wat', source, { simd: true });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/** The generated module's text for these bytes. */
export function binaryModuleText(bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return [
    '// Generated from kdeKernels.wat by `npm run build:kernels`; do not edit. test/kernelsBinary.test.ts checks it matches the source.',
    'export const KDE_KERNELS_WASM_BASE64 =',
    lines.map((l) => `  '${l}'`).join(' +\n') + ';',
    '',
  ].join('\n');
}

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BINARY_MODULE_URL, binaryModuleText, compileKernels } from '../scripts/kernelSource';

describe("the engine's SIMD kernels", () => {
  it('ship the binary their WebAssembly text compiles to (run npm run build:kernels after editing the .wat)', async () => {
    const committed = await readFile(BINARY_MODULE_URL, 'utf8');
    expect(committed).toBe(binaryModuleText(await compileKernels()));
  });
});

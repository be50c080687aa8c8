// Writes src/main/engine/simd/kdeKernelsBinary.ts from kdeKernels.wat (see kernelSource.ts).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BINARY_MODULE_URL, binaryModuleText, compileKernels } from './kernelSource';

const bytes = await compileKernels();
await writeFile(BINARY_MODULE_URL, binaryModuleText(bytes));
process.stdout.write(`wrote ${fileURLToPath(BINARY_MODULE_URL)} (${bytes.length} bytes of WebAssembly)\n`);

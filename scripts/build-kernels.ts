// Writes src/main/engine/simd/kdeKernelsBinary.ts from the .wat sources beside it (see kernelSource.ts).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BINARY_MODULE_URL, binaryModuleText, compileKernels } from './kernelSource';

const binaries = await compileKernels();
await writeFile(BINARY_MODULE_URL, binaryModuleText(binaries));
const sizes = Object.entries(binaries).map(([name, bytes]) => `${name} ${bytes.length} bytes`).join(', ');
process.stdout.write(`wrote ${fileURLToPath(BINARY_MODULE_URL)} (WebAssembly: ${sizes})\n`);

// Writes src/main/engine/simd/kdeKernelsBinary.ts and src/main/engine/posterior/posteriorKernelsBinary.ts from
// the .wat sources beside them (see kernelSource.ts).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  BINARY_MODULE_URL, binaryModuleText, compileKernels, compilePosteriorKernels, POSTERIOR_BINARY_MODULE_URL, posteriorBinaryModuleText,
} from './kernelSource';

const binaries = await compileKernels();
await writeFile(BINARY_MODULE_URL, binaryModuleText(binaries));
const sizes = Object.entries(binaries).map(([name, bytes]) => `${name} ${bytes.length} bytes`).join(', ');
process.stdout.write(`wrote ${fileURLToPath(BINARY_MODULE_URL)} (WebAssembly: ${sizes})\n`);
const posterior = await compilePosteriorKernels();
await writeFile(POSTERIOR_BINARY_MODULE_URL, posteriorBinaryModuleText(posterior));
process.stdout.write(`wrote ${fileURLToPath(POSTERIOR_BINARY_MODULE_URL)} (WebAssembly: ${posterior.length} bytes)\n`);

/**
 * What would compute on this machine, as one JSON line: every backend's availability and, for each
 * backend named on the command line, what initBackend reports once it is active (the device, GPU or
 * fallback adapter, warnings, start time). The offline bundle's check runs it first, so a run on a
 * GPU machine says plainly whether WebGPU found the GPU or fell back to a software adapter.
 *
 *   node adapterInfo.mjs [webgpu] [wasm] …
 */
import type { BackendName } from '../../src/shared/config';
import { initBackend, listBackends } from '../../src/main/engine';

async function main(): Promise<void> {
  const backends = await listBackends();
  const active: Record<string, unknown> = {};
  for (const name of process.argv.slice(2) as BackendName[]) {
    try {
      active[name] = await initBackend(name);
    } catch (e) {
      active[name] = { error: e instanceof Error ? e.message : String(e) };
    }
  }
  process.stdout.write(`${JSON.stringify({ node: process.version, platform: `${process.platform}-${process.arch}`, backends, active })}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);

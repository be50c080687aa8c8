/**
 * What every webgpu test file starts with: the backend started once before its tests where an
 * adapter is present (lavapipe in CI), else a warning that says why its tests skip.
 */
import { beforeAll } from 'vitest';
import { initBackend, listBackends } from '../index';

/** Registers the start; the returned function says, inside a test, whether webgpu is there. */
export function webgpuForTests(what: string): () => boolean {
  let available = false;
  beforeAll(async () => {
    const web = (await listBackends()).find((b) => b.name === 'webgpu')!;
    available = web.available;
    if (!available) console.warn(`${what} skipped: ${web.detail}`);
    else await initBackend('webgpu');
  });
  return () => available;
}

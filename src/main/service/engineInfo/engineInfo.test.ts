import { describe, expect, it } from 'vitest';
import type { EngineChild } from '../../host';
import { SystemInfoCache } from './engineInfo';

/** A stand-in engine process that answers a probe with one backend of the given name, or dies. */
function fakeEngine(backend: string | null, spawned: { count: number }): () => EngineChild {
  return () => {
    spawned.count++;
    let onMessage: (m: unknown) => void = () => undefined;
    let onExit: (e: { code: number | null; signal: string | null }) => void = () => undefined;
    return {
      pid: 1,
      send: () => {
        setTimeout(() => {
          if (backend) onMessage({ type: 'probe-result', probe: { tfjsVersion: '4.22.0', backends: [{ name: backend, available: true, detail: '', isGpu: false }] } });
          onExit(backend ? { code: 0, signal: null } : { code: 3, signal: null });
        }, 1);
      },
      onMessage: (l) => (onMessage = l),
      onExit: (l) => (onExit = l),
      kill: () => undefined,
      stderrTail: () => 'Error: no backend',
    };
  };
}

describe('SystemInfoCache', () => {
  it("probes its own service's engine once, whatever another service in the process does", async () => {
    const spawnedA = { count: 0 };
    const spawnedB = { count: 0 };
    const a = new SystemInfoCache(fakeEngine('wasm', spawnedA));
    const b = new SystemInfoCache(fakeEngine('webgpu', spawnedB));
    expect((await a.get()).backends.map((x) => x.name)).toEqual(['wasm']);
    expect((await b.get()).backends.map((x) => x.name)).toEqual(['webgpu']);
    await a.get();
    expect([spawnedA.count, spawnedB.count]).toEqual([1, 1]);
  });

  it('asks again after a failed probe', async () => {
    const spawned = { count: 0 };
    const failing = new SystemInfoCache(fakeEngine(null, spawned));
    await expect(failing.get()).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    await expect(failing.get()).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect(spawned.count).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { forkEngine } from './engineChild';
import { probeEngine } from './engineHost';

describe('probeEngine', () => {
  it('asks a real engine process for its backends, and the process exits', async () => {
    const probe = await probeEngine(() => forkEngine());
    expect(probe.backends.map((b) => b.name)).toEqual(['wasm', 'cpu', 'webgpu', 'tensorflow']);
    expect(probe.backends.find((b) => b.name === 'wasm')!.available).toBe(true);
    expect(probe.tfjsVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('reports a process that dies before answering', async () => {
    const dead = {
      pid: undefined,
      send: () => undefined,
      onMessage: () => undefined,
      onExit: (listener: (exit: { code: number | null; signal: string | null }) => void) => setTimeout(() => listener({ code: 3, signal: null }), 5),
      kill: () => undefined,
      stderrTail: () => 'Error: boom',
    };
    await expect(probeEngine(() => dead)).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
  });
});

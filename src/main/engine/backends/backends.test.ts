import { describe, expect, it } from 'vitest';
import { initBackend, listBackends, tfjsVersion } from '../index';

describe('backends', () => {
  it('lists all four with availability and a reason', async () => {
    const list = await listBackends();
    expect(list.map((b) => b.name)).toEqual(['wasm', 'cpu', 'webgpu', 'tensorflow']);
    for (const b of list) expect(b.detail.length).toBeGreaterThan(5);
    expect(list.find((b) => b.name === 'wasm')!.available).toBe(true);
  });

  it('initialises wasm and says what computes', async () => {
    const info = await initBackend('wasm');
    expect(info.name).toBe('wasm');
    expect(info.device).toMatch(/WebAssembly/);
    expect(info.isGpu).toBe(false);
    expect(info.tfjsVersion).toBe(tfjsVersion());
  });

  it('auto never picks a software adapter over wasm and explains its choice', async () => {
    const info = await initBackend('auto');
    const web = (await listBackends()).find((b) => b.name === 'webgpu')!;
    if (!web.isGpu) expect(info.name).not.toBe('webgpu');
    expect(info.reason).toMatch(/^auto: /);
  });

  it('tensorflow: unavailable with a reason when not installed, otherwise starts and names its device', async () => {
    const tfn = (await listBackends()).find((b) => b.name === 'tensorflow')!;
    if (tfn.available) {
      // a workstation with tfjs-node(-gpu) installed: it must start and say whether it uses the GPU
      const info = await initBackend('tensorflow');
      expect(info.device).toMatch(/GPU|CPU/);
      return;
    }
    await expect(initBackend('tensorflow')).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
  });
});

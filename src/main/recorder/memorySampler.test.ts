import { describe, it, expect } from 'vitest';
import { MemorySampler } from './memorySampler';
import { parseNvidiaSmiMemory, sampleProcessRssBytes } from './processMemory';

const MB = 1024 * 1024;

function fakeMemory(values: number[]): () => NodeJS.MemoryUsage {
  let i = 0;
  return () => {
    const v = values[Math.min(i++, values.length - 1)]!;
    return { rss: v * MB, heapUsed: (v / 2) * MB, heapTotal: v * MB, external: MB, arrayBuffers: 0 };
  };
}

describe('MemorySampler', () => {
  it('writes counters with constant key sets and units in their names', () => {
    const counters: Array<[string, Record<string, number>]> = [];
    const sampler = new MemorySampler({
      sink: { counter: (n, v) => counters.push([n, v]) },
      memoryUsage: fakeMemory([100, 200]),
      tensorMemory: () => ({ numTensors: 3, numBytes: 2 * MB }),
    });
    sampler.sampleNow();
    sampler.sampleNow();
    expect(counters).toEqual([
      ['memory (MB)', { rss: 100, heapUsed: 50, external: 1, arrayBuffers: 0 }],
      ['tensors', { count: 3, MB: 2 }],
      ['memory (MB)', { rss: 200, heapUsed: 100, external: 1, arrayBuffers: 0 }],
      ['tensors', { count: 3, MB: 2 }],
    ]);
  });

  it('samples at span ends only once an interval has passed', () => {
    let samples = 0;
    const sampler = new MemorySampler({
      sink: { counter: (n) => void (n === 'tensors' && samples++) },
      memoryUsage: fakeMemory([100]),
      tensorMemory: () => ({ numTensors: 1, numBytes: MB }),
      intervalMs: 40,
    });
    const t0 = performance.now();
    expect(sampler.sampleIfDue(t0)).toBe(true);
    expect(sampler.sampleIfDue(performance.now() + 10)).toBe(false);
    expect(sampler.sampleIfDue(performance.now() + 41)).toBe(true);
    expect(samples).toBe(2);
  });

  it('tracks peaks overall and per stage', () => {
    let tensorBytes = 0;
    const sampler = new MemorySampler({
      sink: { counter: () => undefined },
      memoryUsage: fakeMemory([100, 300, 150, 170, 120]),
      tensorMemory: () => ({ numTensors: 1, numBytes: tensorBytes }),
    });
    sampler.markStage('encode'); // 100
    tensorBytes = 5 * MB;
    sampler.sampleNow(); // 300
    tensorBytes = MB;
    sampler.markStage('decode'); // 150 ends encode and starts decode
    sampler.sampleNow(); // 170
    sampler.markStage(undefined); // 120, counts for decode only
    const summary = sampler.stop(); // 120 again, no stage
    expect(summary.rssBytes).toBe(300 * MB);
    expect(summary.heapBytes).toBe(150 * MB);
    expect(summary.tensorBytes).toBe(5 * MB);
    expect(summary.stages.encode).toMatchObject({ rssBytes: 300 * MB, tensorBytes: 5 * MB });
    expect(summary.stages.decode).toMatchObject({ rssBytes: 170 * MB, heapBytes: 85 * MB, tensorBytes: MB });
    expect(summary.samples).toBe(6);
  });

  it('samples at least 20 times a second while idle, and a peer process', async () => {
    const names = new Set<string>();
    let count = 0;
    const sampler = new MemorySampler({
      sink: { counter: (n) => { names.add(n); if (n === 'memory (MB)') count++; } },
      peer: { pid: process.pid, label: 'engine' },
      processRss: async () => 50 * MB,
    });
    sampler.start();
    await new Promise((r) => setTimeout(r, 500));
    const summary = sampler.stop();
    expect(count).toBeGreaterThanOrEqual(10);
    expect(names.has('engine rss (MB)')).toBe(true);
    expect(summary.peerRssBytes).toBe(50 * MB);
  });

  it('adds a GPU counter from the query', async () => {
    const counters: Array<[string, Record<string, number>]> = [];
    const sampler = new MemorySampler({
      sink: { counter: (n, v) => counters.push([n, v]) },
      gpu: true,
      gpuQuery: async () => [{ index: 0, name: 'NVIDIA H100', usedBytes: 1024 * MB, totalBytes: 81_559 * MB }],
    });
    sampler.start();
    await new Promise((r) => setTimeout(r, 20));
    const summary = sampler.stop();
    expect(counters).toContainEqual(['gpu memory (MB)', { used: 1024, total: 81_559 }]);
    expect(summary.gpuUsedBytes).toBe(1024 * MB);
  });
});

describe('process memory probes', () => {
  it('reads the RSS of a running process and null for one that does not exist', async () => {
    const rss = await sampleProcessRssBytes(process.pid);
    expect(rss).toBeGreaterThan(10 * MB);
    expect(rss).toBeLessThan(64 * 1024 * MB);
    expect(await sampleProcessRssBytes(2 ** 22 + 12345)).toBeNull();
  });

  it('parses nvidia-smi memory lines in MiB', () => {
    expect(parseNvidiaSmiMemory('1024, 81559, NVIDIA H100 80GB HBM3\n3, 16384, Tesla T4\n\n')).toEqual([
      { index: 0, name: 'NVIDIA H100 80GB HBM3', usedBytes: 1024 * MB, totalBytes: 81_559 * MB },
      { index: 1, name: 'Tesla T4', usedBytes: 3 * MB, totalBytes: 16_384 * MB },
    ]);
    expect(parseNvidiaSmiMemory('[N/A], [N/A], X')).toEqual([]);
  });
});

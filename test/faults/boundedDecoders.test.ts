/**
 * Fault: data and run files whose headers promise far more than they hold. An npz numbering an
 * electrode 10^15 (the loader counted every index up to it: a V8 fatal after 2.3 GB), an npz whose
 * electrode_names is a string array of millions of items, a trace.json.gz that inflates without
 * bound (gigabytes from a few MB), and a sparse likelihood .npy declaring rows of 10^8 bins (a
 * 4 KB file on disk read as 800 MB rows). Each is now refused with an error naming the file and
 * the key, promptly, and the service answers the next call.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { open, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { npyHeader } from '../../src/main/data';
import { makeNpz, unzipMembers } from '../../src/main/data/testing';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { likelihoodLayout, openLikelihood } from '../../src/main/service/likelihood/likelihoodRows';
import { presetRun, scratchFolder } from './faultKit';

const TINY = fileURLToPath(new URL('../fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const ANSWER_WITHIN_MS = 10_000;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-bounded-');
  service = createProfilerService({ runsDir: join(folder.path, 'runs') });
});
afterEach(async () => {
  await service.close();
  await folder.remove();
});

async function npzFile(name: string, extra: Record<string, Uint8Array>, level: 0 | 6 = 0): Promise<string> {
  const path = join(folder.path, name);
  await writeFile(path, makeNpz({ ...unzipMembers(readFileSync(TINY)), ...extra }, level));
  return path;
}

async function timedFindings(path: string): Promise<{ ms: number; text: string }> {
  const t0 = performance.now();
  const inspection = await service.inspectData({ kind: 'file', path }).then((r) => JSON.stringify(r.findings), (e: Error) => `refused: ${e.message}`);
  return { ms: performance.now() - t0, text: inspection };
}

describe('fault: decoders meet headers that promise too much', () => {
  it('refuses an electrode numbered 10^15, naming the key', async () => {
    const members = unzipMembers(readFileSync(TINY));
    const key = 'spike_times_1000000000000000';
    const path = await npzFile('far.npz', { [key]: members.spike_times_0!, 'spike_waveform_features_1000000000000000': members.spike_waveform_features_0! });
    const { ms, text } = await timedFindings(path);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(text).toContain(`'${key}' numbers electrode 1000000000000000`);
  }, 60_000);

  it('refuses a string array of millions of names before reading it', async () => {
    const count = 2_000_000;
    const header = npyHeader('<U1', [count]);
    const names = new Uint8Array(header.length + count * 4);
    names.set(header);
    const path = await npzFile('names.npz', { electrode_names: names }, 6);
    const { ms, text } = await timedFindings(path);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(text).toMatch(/names\.npz: 'electrode_names' is a string array of 2000000 items/);
  }, 60_000);

  it('refuses a trace.json.gz that inflates beyond its bound, and answers the next call', async () => {
    const { runId } = await service.startRun(presetRun('tiny'));
    expect((await service.whenFinished(runId)).status).toBe('completed');
    const trace = join(service.runsDir, runId, 'trace.json.gz');
    await rm(trace);
    const chunk = Buffer.alloc(64 << 20);
    let left = 9; // 576 MiB of zeros, a few hundred KB gzipped
    const zeros = new Readable({ read() { this.push(left-- > 0 ? chunk : null); } });
    await pipeline(zeros, createGzip({ level: 1 }), createWriteStream(trace));
    const said = await service.exportRun(runId, 'trace-json').then((r) => `answered ${r.base64?.length ?? 0}`, (e: Error) => `refused: ${e.message}`);
    // refused from the gzip trailer's declared size, before a byte is inflated
    expect(said).toMatch(/^refused: .*trace\.json\.gz declares 603979776 bytes inflated in its gzip trailer, .*it was not inflated/);
    // nor handed on as it is
    await expect(service.exportRun(runId, 'trace')).rejects.toThrow(/trace\.json\.gz declares 603979776 bytes inflated/);
    expect((await service.listRuns()).some((r) => r.id === runId)).toBe(true);
  }, 120_000);

  it('refuses a sparse likelihood declaring rows of 10^8 bins before reading a row', async () => {
    const path = join(folder.path, 'sparse.npy');
    const header = npyHeader('<f8', [2, 100_000_000]);
    await writeFile(path, header);
    await truncate(path, header.length + 2 * 100_000_000 * 8);
    const handle = (await openLikelihood(path))!;
    try {
      await expect(likelihoodLayout(handle, path)).rejects.toThrow(/declares 100000000 position bins per row/);
    } finally {
      await handle.close();
    }
    // a 4 KB file declaring the same is refused for its size
    await writeFile(path, Buffer.concat([header, Buffer.alloc(4096 - header.length)]));
    const small = await open(path, 'r');
    try {
      await expect(likelihoodLayout(small, path)).rejects.toThrow(/declares|truncated/);
    } finally {
      await small.close();
    }
  });
});

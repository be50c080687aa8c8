import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset, type LoadProgress } from '../index';

const script = fileURLToPath(new URL('../../../../scripts/make-recording.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const dir = mkdtempSync(join(tmpdir(), 'kde-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generated recordings (scripts/make-recording.ts, small scale)', () => {
  it('writes a clusterless-npz/1 file that loads per electrode with progress', async () => {
    const out = join(dir, 'rec.npz');
    execFileSync(process.execPath, ['--import', tsx, script, out, '--spikes', '24000', '--electrodes', '6', '--duration', '60', '--decode-last', '0.05'], { stdio: 'pipe' });
    expect(statSync(out).size).toBeGreaterThan(24000 * 24);
    const seen: LoadProgress[] = [];
    const ds = await loadDataset({ kind: 'file', path: out }, { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.electrode)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.every((p) => p.nElectrodes === 6)).toBe(true);
    expect(seen.at(-1)!.spikesRead).toBe(24000);
    expect(ds.electrodes.map((e) => e.name)).toEqual(['tet01', 'tet02', 'tet03', 'tet04', 'tet05', 'tet06']);
    expect(ds.electrodes.reduce((s, e) => s + e.encodingSpikeTimes.length, 0)).toBe(24000);
    expect(ds.electrodes.every((e) => e.nFeatures === 4)).toBe(true);
    expect(ds.positionTime.length).toBe(30000);
    expect(ds.time.length).toBe(1500);
    expect(ds.time[0]).toBe(ds.positionTime[28500]);
    const last = ds.positionTime[ds.positionTime.length - 1]!;
    for (const e of ds.electrodes) expect(e.encodingSpikeTimes[e.encodingSpikeTimes.length - 1]!).toBeLessThanOrEqual(last);
  });
});

/**
 * scripts/make-recording.ts as a lab runs it: its help, and a small recording with replay events
 * that loads as ordinary clusterless-npz/1 data, its events listed where a decode can be checked
 * against them; a decode of its last part says what the whole recording would take.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNpz, openNpz } from '../src/main/data';
import type { DecodeSummary } from '../src/main/engineProtocol';

const CLI = fileURLToPath(new URL('../bin/kde-profiler.mjs', import.meta.url));

const SCRIPT = fileURLToPath(new URL('../scripts/make-recording.ts', import.meta.url));
const run = (args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { encoding: 'utf8' });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'make-recording-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('make-recording', () => {
  it('prints its usage for --help and exits 0', async () => {
    const { stdout } = await run(['--help']);
    expect(stdout).toMatch(/^usage: make-recording\.ts OUT\.npz .*--replay-rate R\] \[--bin-cm B\]/);
  });

  it('writes a recording whose replay events lie in the decoded window and whose grid follows --bin-cm', async () => {
    const out = join(dir, 'r.npz');
    await run([out, '--spikes', '20000', '--electrodes', '2', '--duration', '120', '--decode-last', '0.5', '--replay-rate', '2', '--bin-cm', '4']);
    const d = await loadNpz(out);
    expect(d.electrodes).toHaveLength(2);
    expect(d.placeBinCenters.length).toBe(50);
    const npz = await openNpz(out);
    const metaText = ((await npz.read('meta_json')).data as string[])[0]!;
    await npz.close();
    const events = (JSON.parse(metaText) as { replay_events: { startS: number; endS: number }[] }).replay_events;
    expect(events.length).toBeGreaterThan(0);
    // some fall in the decoded window (its last half), each 100–250 ms long
    expect(events.some((e) => e.startS >= d.time[0]!)).toBe(true);
    for (const e of events) {
      expect(e.endS - e.startS).toBeGreaterThanOrEqual(0.1 - 1e-9);
      expect(e.endS - e.startS).toBeLessThanOrEqual(0.25 + 1e-9);
    }
  });

  it('projects the whole recording\'s time and peak memory from a decode of its last tenth, with no interval from a single batch', async () => {
    const data = join(dir, 'slice.npz');
    await run([data, '--spikes', '20000', '--electrodes', '2', '--duration', '200', '--decode-last', '0.1', '--bin-cm', '4']);
    const out = join(dir, 'slice-decode');
    const args = ['decode', '--data', data, '--rows-per-chunk', '1000', '--out', out, '--runs-dir', join(dir, 'runs')];
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 240_000 });
    // its 10 000 rows are computed in one batch of windows, whose time says nothing of its spread
    expect(stdout).toMatch(/The whole recording \([\d,]+ rows, 10\.0× this decode's [\d,]+\) would take about [^(]*: likelihood .*, filter and smoother .*; peak memory about .*\./);
    const summary = JSON.parse(await readFile(join(out, 'decode.json'), 'utf8')) as DecodeSummary;
    const j = summary.projection!;
    expect(j.recordingRows / j.decodedRows).toBeCloseTo(10, 1);
    // the likelihood grows with the rows: whatever its one-off costs, the whole takes well over the slice's time
    expect(j.likelihoodMs).toBeGreaterThan(0.5 * summary.decodeMs * (j.recordingRows / j.decodedRows));
    expect(j.totalCi95).toBeUndefined();
    expect(j.peakRssBytes!.projected).toBeGreaterThan(j.peakRssBytes!.measured);
  }, 300_000);
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig, type StrategyChoice } from '../../../shared/config';
import type { SpanRecord } from '../../../shared/events';
import { datasetFingerprint, makePreset, parseNpy } from '../../data';
import { POSTERIOR_FILES, type DecodeRequest, type DecodeSummary, type EngineToHost } from '../../engineProtocol';
import { DecodeProgress } from './decodeProgress';
import { startEngineRun } from '../run/engineRun';
import { fakeEngineDeps, type FakeEngineOptions } from '../testing';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'decode-run-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function decode(
  strategies: StrategyChoice[], rowsPerChunk: number, options: FakeEngineOptions = {}, onMessage?: (m: EngineToHost) => void, extra: Record<string, unknown> = {},
  posterior?: DecodeRequest['posterior'],
) {
  const messages: EngineToHost[] = [];
  const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies, repeats: 1, warmup: 0, ...extra });
  const run = startEngineRun(
    { type: 'start', runId: 'dec', runDir: dir, config, originNs: process.hrtime.bigint().toString(), decode: { rowsPerChunk, ...(posterior ? { posterior } : {}) } },
    fakeEngineDeps(options),
    (m) => {
      messages.push(m);
      onMessage?.(m);
    },
  );
  return { run, messages };
}

describe('a decode run in the engine process', () => {
  it('streams the likelihood into the run folder, writes decode.json and reports one fit and one decode', async () => {
    const { run, messages } = decode(['compensated'], 7);
    await run.done;
    const result = messages.find((m) => m.type === 'result');
    if (result?.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
    const { nTime, nBins } = result.outcome.dataset;
    const npy = parseNpy(new Uint8Array(await readFile(join(dir, 'likelihood', 'compensated.npy'))));
    expect(npy.dtype.descr).toBe('<f4');
    expect(npy.shape).toEqual([nTime, nBins]);
    expect(await readdir(join(dir, 'likelihood'))).not.toContain('compensated.npy.partial');
    const summary = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8')) as DecodeSummary;
    expect(summary).toMatchObject({ strategy: 'compensated', rowsPerChunk: 7, likelihoodFile: 'likelihood/compensated.npy', shape: [nTime, nBins] });
    expect(summary.windows).toBe(Math.ceil(nTime / 7));
    expect(summary.peakRssBytes).toBeGreaterThan(0);
    const [s] = result.outcome.strategies;
    expect(s).toMatchObject({ strategy: 'compensated', status: 'ok', likelihoodFile: 'likelihood/compensated.npy' });
    expect([s!.encode!.n, s!.decode!.n]).toEqual([0, 0]);
    // the machine's load around the decode, which the report's busy finding reads
    if (process.platform === 'linux') expect(s!.load).toMatchObject({ loadAverageStart: expect.any(Array), loadAverageEnd: expect.any(Array), busy: expect.any(Boolean) });
    expect(result.outcome.windows.map((w) => w.strategy)).toEqual(['compensated']);
    // the stage table of the fit and the decode, tallied as the spans closed; the loop's own spans left out
    const stages = Object.fromEntries(s!.stages.map((st) => [st.name, st]));
    expect(stages.encode).toMatchObject({ calls: 1 });
    expect(stages.decode).toMatchObject({ calls: 1 });
    expect(stages.occupancy).toMatchObject({ calls: 1 });
    expect(stages.encode!.selfMs).toBeCloseTo(stages.encode!.totalMs - stages.occupancy!.totalMs, 6);
    for (const loop of ['run', 'load-data', 'backend-init']) expect(stages[loop]).toBeUndefined();

    const names = messages.flatMap((m) => (m.type === 'trace' ? m.records : [])).filter((r): r is SpanRecord => r.ph === 'X').map((r) => r.name);
    for (const n of ['run', 'load-data', 'backend-init', 'encode', 'decode']) expect(names).toContain(n);
    const logs = messages.flatMap((m) => (m.type === 'log' ? [m.message] : []));
    expect(logs.some((l) => /estimated peak device memory/.test(l))).toBe(true);
  });

  it("keeps auto's probe in decode.json and in the report's row alike", async () => {
    const { run, messages } = decode(['auto'], 50, {}, undefined, { data: { kind: 'preset', name: 'place' }, blockSize: 4 });
    await run.done;
    const result = messages.find((m) => m.type === 'result');
    if (result?.type !== 'result') throw new Error('no result');
    const summary = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8')) as DecodeSummary;
    expect(summary.autoProbe?.candidates.map((c) => c.strategy)).toEqual(['compensated', 'series']);
    expect(result.outcome.strategies[0]!.autoProbe).toEqual(summary.autoProbe);
  });

  it('ends with the posterior when asked: its summary in decode.json and in the outcome the report is built from', async () => {
    const { run, messages } = decode(['reference'], 9, {}, undefined, {}, { model: 'decoder', method: 'structured' });
    await run.done;
    const result = messages.find((m) => m.type === 'result');
    if (result?.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
    const summary = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8')) as DecodeSummary;
    expect(summary.posterior).toMatchObject({ model: 'decoder', method: 'structured', rows: result.outcome.dataset.nTime, files: POSTERIOR_FILES });
    expect(result.outcome.posterior).toEqual(summary.posterior);
    // the likelihood's accuracy the posterior stage measured is the strategy row's, as Results' accuracy table reads it
    expect(summary.posterior!.accuracy?.likelihood?.rows).toBeGreaterThan(0);
    expect(result.outcome.strategies[0]!.accuracy).toEqual(summary.posterior!.accuracy!.likelihood);
    expect((await readdir(join(dir, 'posterior'))).sort()).toEqual(Object.values(POSTERIOR_FILES).map((f) => f.split('/')[1]).sort());
    // without --model the outcome has none
    const plain = decode(['reference'], 9);
    await plain.run.done;
    const plainResult = plain.messages.find((m) => m.type === 'result');
    expect(plainResult?.type === 'result' && plainResult.outcome.posterior).toBe(undefined);
  });

  it('stops before the posterior at a NaN in the likelihood, naming its row, and keeps the likelihood', async () => {
    const { run, messages } = decode(['reference'], 9, { nanRow: 5 }, undefined, {}, { model: 'decoder', method: 'structured' });
    await run.done;
    const failed = messages.find((m) => m.type === 'error');
    const text = JSON.stringify(failed ?? messages.filter((m) => m.type !== 'trace'));
    expect(text).toMatch(/the likelihood is NaN at row 5 \(t = [\d.]+ s\), bin 0/);
    expect(await readdir(join(dir, 'likelihood'))).toContain('reference.npy');
    expect((await readdir(dir)).includes('posterior') ? (await readdir(join(dir, 'posterior'))).filter((f) => !f.endsWith('.partial')) : []).not.toContain('acausal_posterior.npy');
  });

  it('reports progress through loading, fitting and decoding, counting phases until it can tell time, ending at the whole bar', async () => {
    const { run, messages } = decode(['reference'], 3, { busyMsPerElectrode: 30 });
    await run.done;
    const progress = messages.flatMap((m) => (m.type === 'progress' ? [m.progress] : []));
    const fractions = progress.map((p) => p.fraction);
    // each reading rises on its own terms, and once it reads as time it stays time
    const firstTimed = progress.findIndex((p) => p.basis === 'time');
    expect(firstTimed).toBeGreaterThan(0);
    expect(progress.slice(firstTimed).every((p) => p.basis === 'time')).toBe(true);
    for (const part of [fractions.slice(0, firstTimed), fractions.slice(firstTimed)]) expect(part).toEqual([...part].sort((a, b) => a - b));
    expect(progress.some((p) => p.label.startsWith('fitting'))).toBe(true);
    expect(progress.some((p) => p.label.startsWith('decoding'))).toBe(true);
    expect(fractions[fractions.length - 1]).toBe(1);
  });

  it('stops when cancelled, says so, and keeps the rows written in the partial file', async () => {
    // cancelled once the first rows are on disk, as a cancel message arriving between windows
    let cancel = () => undefined as void;
    const { run, messages } = decode(['reference'], 2, { busyMsPerElectrode: 20 }, (m) => {
      if (m.type === 'progress' && m.progress.label.startsWith('decoding rows')) cancel();
    });
    cancel = () => run.cancel();
    await run.done;
    expect(messages.some((m) => m.type === 'cancelled')).toBe(true);
    expect(messages.some((m) => m.type === 'result' || m.type === 'error')).toBe(false);
    const files = await readdir(join(dir, 'likelihood'));
    expect(files).toContain('reference.npy.partial');
    expect(files).not.toContain('reference.npy');
  });

  it('a shard decodes its electrodes only; decode.json and the outcome say which, with the whole dataset\'s fingerprint', async () => {
    const { run, messages } = decode(['compensated'], 10, {}, undefined, { shard: { index: 1, count: 2, by: 'round-robin' } });
    await run.done;
    const result = messages.find((m) => m.type === 'result');
    if (result?.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
    const shard = { index: 1, count: 2, by: 'round-robin', electrodes: ['e1', 'e3'] };
    const fingerprint = datasetFingerprint(makePreset('tiny'));
    expect(result.outcome).toMatchObject({ shard, fingerprint });
    expect(result.outcome.strategies[0]!.resolved).toHaveLength(2);
    const summary = JSON.parse(await readFile(join(dir, 'decode.json'), 'utf8')) as DecodeSummary;
    expect(summary).toMatchObject({ shard, fingerprint });
    expect(summary.dataset.nElectrodes).toBe(2);
  });

  it('refuses more than one strategy as the run error', async () => {
    const { run, messages } = decode(['reference', 'compensated'], 10);
    await run.done;
    const err = messages.find((m) => m.type === 'error');
    expect(err?.type === 'error' && err.error).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/one strategy/) });
  });
});

describe('DecodeProgress', () => {
  it('counts the phases while no ETA is known, then reads as time with an ETA from the decoding pace when nothing follows it', () => {
    let now = 0;
    const p = new DecodeProgress(() => now);
    expect(p.snapshot(0.5, 'electrode 1/2')).toMatchObject({
      fraction: 0.5 / 3, label: 'loading electrode 1/2', basis: 'count', count: { done: 0.5, total: 3, unit: 'phases' },
    });
    p.enter('fitting');
    expect(p.snapshot().etaMs).toBeUndefined();
    now = 1000;
    p.enter('decoding');
    now = 3000;
    const s = p.snapshot(0.25, 'rows 25/100');
    // 3 s behind it, 6 s ahead: a third of its time
    expect(s).toMatchObject({ fraction: 1 / 3, basis: 'time', label: 'decoding rows 25/100', elapsedMs: 3000, etaMs: 6000 });
  });

  it("gives the detector's local likelihood its own part of the bar between decoding and the filter, timed from its own pace", () => {
    let now = 0;
    const p = new DecodeProgress(() => now, 'detector');
    p.enter('decoding');
    expect(p.snapshot(0.5).count).toEqual({ done: 2.5, total: 5, unit: 'phases' });
    p.enter('local');
    now = 1000;
    // 1 s left of its own, then the posterior at 3/27 of its projected 2 s
    expect(p.snapshot(0.5, 'electrode 16/32')).toMatchObject({ fraction: 1000 / 2222, basis: 'time', label: 'local electrode 16/32', etaMs: 1222 });
    p.enter('posterior');
    expect(p.snapshot(0).count?.done).toBe(4);
    expect(new DecodeProgress(() => now, 'decoder').snapshot().fraction).toBe(0);
  });

  it('counts the phases still to come in the ETA, at their measured shares of the phase running now', () => {
    let now = 0;
    const detector = new DecodeProgress(() => now, 'detector');
    detector.enter('decoding');
    now = 2000;
    // the likelihood projects to 8 s: 6 s left, then the local likelihood 8 × 27/46 s and the posterior 8 × 3/46 s
    expect(detector.snapshot(0.25).etaMs).toBe(Math.round(6000 + (8000 * 27) / 46 + (8000 * 3) / 46));
    detector.enter('local');
    now = 3000;
    // the local likelihood projects to 2 s: 1 s left, then the posterior 2 × 3/27 s
    expect(detector.snapshot(0.5).etaMs).toBe(Math.round(1000 + (2000 * 3) / 27));
    detector.enter('posterior');
    now = 3300;
    expect(detector.snapshot(0.75).etaMs).toBe(100);

    now = 0;
    const decoder = new DecodeProgress(() => now, 'decoder');
    decoder.enter('decoding');
    now = 2000;
    // no local likelihood in the decoder: the posterior alone follows
    expect(decoder.snapshot(0.25).etaMs).toBe(Math.round(6000 + (8000 * 3) / 46));
    // a phase the decode was not expected to go through counts only what is left of itself
    decoder.enter('local');
    now = 3000;
    expect(decoder.snapshot(0.5).etaMs).toBe(1000);
  });
});

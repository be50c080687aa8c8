import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunConfig, type StrategyChoice } from '../../../shared/config';
import type { SpanRecord } from '../../../shared/events';
import { encodeNpyFloat32 } from '../../data';
import { validateReport } from '../../export';
import { buildReport } from '../../service/report';
import { POSTERIOR_FILES, type EngineOutcome, type EngineToHost } from '../../engineProtocol';
import { startEngineRun } from '../run/engineRun';
import { maxAbsDiff } from './runPosterior';
import { fakeEngineDeps, type FakeEngineOptions } from '../testing';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function runPosterior(strategies: StrategyChoice[], extra: Record<string, unknown>, options: FakeEngineOptions = {}) {
  const runDir = await mkdtemp(join(tmpdir(), 'run-posterior-'));
  dirs.push(runDir);
  const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies, repeats: 1, warmup: 0, ...extra });
  const messages: EngineToHost[] = [];
  const run = startEngineRun(
    { type: 'start', runId: 'post', runDir, config, originNs: process.hrtime.bigint().toString() }, fakeEngineDeps(options), (m) => messages.push(m),
  );
  await run.done;
  return { runDir, config, messages };
}

function resultOf(messages: EngineToHost[]): EngineOutcome {
  const r = messages.find((m) => m.type === 'result');
  if (r?.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
  return r.outcome;
}

function spansOf(messages: EngineToHost[]): SpanRecord[] {
  return messages.flatMap((m) => (m.type === 'trace' ? m.records : [])).filter((r): r is SpanRecord => r.ph === 'X');
}

describe('a profiling run with a posterior', () => {
  it('times the filter and smoother per posterior method, compares their posteriors and leaves the last one\'s files', async () => {
    const { runDir, config, messages } = await runPosterior(['reference', 'compensated'], { posterior: { model: 'decoder' } });
    const outcome = resultOf(messages);
    const posterior = outcome.posterior!;
    expect(posterior).toMatchObject({ model: 'decoder', method: 'structured', rows: outcome.dataset.nTime, files: POSTERIOR_FILES });
    expect(posterior.methods!.map((s) => s.method)).toEqual(['dense', 'structured']);
    const [dense, structured] = posterior.methods!;
    expect(dense!.maxAbsDiffToFirst).toBe(0);
    expect(structured!.maxAbsDiffToFirst).toBeGreaterThanOrEqual(0);
    expect(structured!.maxAbsDiffToFirst).toBeLessThan(1e-4);
    expect(structured).toMatchObject({ filterMs: posterior.filterMs, smoothMs: posterior.smoothMs });
    expect(dense!.filterMs).toBeGreaterThan(0);
    // the decoder needs no Local state
    expect(posterior.localMs).toBeUndefined();

    // the last method's outputs stay; the scratch of the others and the likelihood written for the stage go
    expect((await readdir(join(runDir, 'posterior'))).sort()).toEqual(Object.values(POSTERIOR_FILES).map((f) => f.split('/')[1]).sort());
    expect(await readdir(runDir)).not.toContain('posterior-work');
    // likelihood/ keeps only the axes the Decode view draws the posterior against, not a likelihood file
    expect(await readdir(join(runDir, 'likelihood'))).toEqual(['axes.json']);

    // each method under its own span, the filter and smoother windows inside it
    const spans = spansOf(messages);
    for (const method of ['dense', 'structured']) {
      const parent = spans.find((s) => s.name === `posterior ${method}`)!;
      expect(parent.args).toMatchObject({ model: 'decoder', method });
      const inside = spans.filter((s) => s.ts >= parent.ts && s.ts + s.dur <= parent.ts + parent.dur).map((s) => s.name);
      expect(inside).toContain('filter');
      expect(inside).toContain('smooth');
    }

    // the bar reaches the end through the posterior's group
    const progress = messages.flatMap((m) => (m.type === 'progress' ? [m.progress] : []));
    expect(progress.some((p) => p.label.startsWith('posterior · structured'))).toBe(true);
    expect(progress.at(-1)!.fraction).toBe(1);

    const report = buildReport({ runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed', config, outcome });
    expect(report.posterior!.methods).toHaveLength(2);
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
  });

  it('computes the detector\'s Local state itself, or takes the one --local measured, and reads a likelihood --save-likelihood wrote', async () => {
    const own = resultOf((await runPosterior(['compensated'], { posterior: { model: 'detector', methods: ['dense'] } })).messages).posterior!;
    expect(own.methods!.map((s) => s.method)).toEqual(['dense']);
    expect(own.method).toBe('dense');
    expect(own.states).toContain('Local');
    expect(own.localMs).toBeGreaterThanOrEqual(0);

    const { runDir, messages } = await runPosterior(['compensated'], { local: true, saveLikelihood: true, posterior: { model: 'detector' } });
    const reused = resultOf(messages).posterior!;
    expect(reused.localMs).toBeUndefined();
    expect(reused.methods).toHaveLength(2);
    // only the strategy's own file and the local one: nothing was written for the posterior
    expect((await readdir(join(runDir, 'likelihood'))).sort()).toEqual(['axes.json', 'compensated.npy', 'local.npy']);
  });

  it('decodes with the parameters the run gives, as decode does: the multi-bin Local state needs no Local likelihood pass', async () => {
    const parameters = { movementVar: 2.5, localPositionStd: 0 };
    const { messages, config } = await runPosterior(['compensated'], { posterior: { model: 'detector', methods: ['structured'], parameters } });
    const posterior = resultOf(messages).posterior!;
    expect(posterior.parameters).toMatchObject(parameters);
    expect(posterior.localMs).toBeUndefined();
    expect(spansOf(messages).some((s) => s.name === 'local')).toBe(false);
    // NLD's defaults where the run said nothing
    const plain = resultOf((await runPosterior(['compensated'], { posterior: { model: 'detector', methods: ['structured'] } })).messages).posterior!;
    expect(plain.parameters!.movementVar).not.toBe(2.5);
    expect(plain.parameters!.localPositionStd).toBeUndefined();
    // the multi-bin Local state spans the grid: more state bins than the one-bin Local state's
    expect(posterior.nStateBins).toBeGreaterThan(plain.nStateBins);
    expect(config.posterior!.parameters).toEqual(parameters);
    const report = buildReport({ runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed', config, outcome: resultOf(messages) });
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    // the schema holds the config's parameters to the same bounds as the ones decoded with
    const edited = (edit: (r: typeof report) => void) => {
      const r = structuredClone(report);
      edit(r);
      return validateReport(r).ok;
    };
    expect(edited((r) => void (r.config.posterior!.parameters!.movementVar = -1))).toBe(false);
    expect(edited((r) => void Object.assign(r.config.posterior!.parameters!, { width: 1 }))).toBe(false);
    expect(edited((r) => void delete (r.posterior!.parameters as Partial<NonNullable<typeof r.posterior>["parameters"]>)!.movementVar)).toBe(false);
  });

  it('keeps the likelihood results when the posterior fails: they went to the host before it began', async () => {
    const { runDir, messages } = await runPosterior(['reference', 'compensated'], { posterior: { model: 'detector' } }, { failingLocal: true });
    const error = messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error.message).toBe('the local likelihood is broken in this test');
    expect(messages.some((m) => m.type === 'result')).toBe(false);
    const partials = messages.flatMap((m) => (m.type === 'partial' ? [m.outcome] : []));
    const last = partials.at(-1)!;
    expect(last.strategies.map((s) => [s.strategy, s.status])).toEqual([['reference', 'ok'], ['compensated', 'ok']]);
    expect(last.agreementMatrix!.strategies).toEqual(['reference', 'compensated']);
    expect(last.posterior).toBeUndefined();
    expect(await readdir(runDir)).not.toContain('posterior-work');
  });

  it('stops between strategies when cancelled, as a cancel and not an error', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'run-posterior-'));
    dirs.push(runDir);
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'], repeats: 1, warmup: 0, posterior: { model: 'decoder' } });
    const messages: EngineToHost[] = [];
    const run = startEngineRun({ type: 'start', runId: 'post', runDir, config, originNs: process.hrtime.bigint().toString() }, fakeEngineDeps(), (m) => {
      messages.push(m);
      if (m.type === 'progress' && m.progress.label.startsWith('posterior · structured')) run.cancel();
    });
    await run.done;
    expect(messages.at(-1)).toEqual({ type: 'cancelled' });
    expect(messages.some((m) => m.type === 'partial' && m.outcome.strategies[0]!.status === 'ok')).toBe(true);
    expect(await readdir(runDir)).not.toContain('posterior-work');
  });
});

describe('maxAbsDiff of two posterior files', () => {
  it('reads them a window at a time, skips columns NaN in both, and is NaN where only one is NaN', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'run-posterior-'));
    dirs.push(runDir);
    const rows = 4500;
    const write = async (name: string, edit: (v: Float64Array) => void) => {
      const v = new Float64Array(rows * 3).map((_x, k) => (k % 3 === 0 ? Number.NaN : k / (rows * 3)));
      edit(v);
      await writeFile(join(runDir, name), encodeNpyFloat32([rows, 3], v));
      return join(runDir, name);
    };
    const a = await write('a.npy', () => undefined);
    // the difference lies in the third window of rows
    const b = await write('b.npy', (v) => { v[4200 * 3 + 1] = v[4200 * 3 + 1]! + 0.25; });
    const c = await write('c.npy', (v) => { v[7] = Number.NaN; });
    expect(await maxAbsDiff(a, a, rows)).toBe(0);
    expect(await maxAbsDiff(a, b, rows)).toBeCloseTo(0.25, 6);
    expect(await maxAbsDiff(a, c, rows)).toBeNaN();
    await expect(maxAbsDiff(a, b, rows + 1)).rejects.toThrow('cannot be compared');
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import type { InstantRecord, SpanRecord } from '../../../shared/events';
import { datasetFingerprint, makePreset, SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT } from '../../data';
import type { EngineOutcome, EngineToHost } from '../../engineProtocol';
import { startEngineRun } from '../run/engineRun';
import { fakeEngineDeps } from '../testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-session-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function profile(extra: Record<string, unknown> = {}): Promise<{ outcome: EngineOutcome; messages: EngineToHost[] }> {
  const messages: EngineToHost[] = [];
  const config = parseRunConfig({ data: { kind: 'preset', name: 'small', seed: 9 }, strategies: ['reference'], repeats: 1, warmup: 0, ...extra });
  const run = startEngineRun(
    { type: 'start', runId: 'session', runDir: dir, config, originNs: process.hrtime.bigint().toString() },
    fakeEngineDeps(),
    (m) => messages.push(m),
  );
  await run.done;
  const result = messages.find((m) => m.type === 'result');
  if (result?.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
  return { outcome: result.outcome, messages };
}

const records = (messages: EngineToHost[]) => messages.flatMap((m) => (m.type === 'trace' ? m.records : []));

describe('what a run says about the data it computed', () => {
  const whole = makePreset('small', { seed: 9 });

  it('an unsharded run reports the whole dataset\'s fingerprint and no shard', async () => {
    const { outcome, messages } = await profile();
    expect(outcome.fingerprint).toBe(datasetFingerprint(whole));
    expect(outcome.shard).toBeUndefined();
    expect(outcome.dataset.nElectrodes).toBe(8);
    const spans = records(messages).filter((r): r is SpanRecord => r.ph === 'X').map((r) => r.name);
    expect(spans).toContain('fingerprint');
    expect(records(messages).some((r) => r.ph === 'I' && r.name === SHARD_CLOCK_INSTANT)).toBe(false);
  });

  it('a shard computes its electrodes only and reports which, with the whole dataset\'s fingerprint', async () => {
    const { outcome, messages } = await profile({ shard: { index: 2, count: 3, by: 'round-robin' } });
    expect(outcome.shard).toEqual({ index: 2, count: 3, by: 'round-robin', electrodes: ['e2', 'e5'] });
    expect(outcome.fingerprint).toBe(datasetFingerprint(whole));
    expect(outcome.dataset.electrodes.map((e) => e.name)).toEqual(['e2', 'e5']);
    // the engine saw the shard: one resolved strategy per electrode it computed
    expect(outcome.strategies[0]!.resolved).toHaveLength(2);
    const logs = messages.flatMap((m) => (m.type === 'log' ? [m.message] : []));
    expect(logs).toContain('shard 2/3 (round-robin): electrodes e2, e5 of 8');
  });

  it('a shard split by spikes takes its share of the balanced split', async () => {
    const shards = await Promise.all([0, 1, 2].map((index) => profile({ shard: { index, count: 3, by: 'spikes' } })));
    const names = shards.flatMap((s) => s.outcome.shard!.electrodes);
    expect(names.sort()).toEqual(whole.electrodes.map((e) => e.name).sort());
    expect(new Set(shards.map((s) => s.outcome.fingerprint)).size).toBe(1);
  });

  it('a shard marks the wall clock at its start and its CPU time at its end, for the merge', async () => {
    const before = Date.now();
    const { messages } = await profile({ shard: { index: 0, count: 2, by: 'round-robin' } });
    const instants = records(messages).filter((r): r is InstantRecord => r.ph === 'I');
    const clock = instants.find((r) => r.name === SHARD_CLOCK_INSTANT);
    const cpu = instants.find((r) => r.name === SHARD_CPU_INSTANT);
    expect(clock!.args!.unixTimeMs).toBeGreaterThanOrEqual(before - 1);
    expect(clock!.args!.unixTimeMs).toBeLessThanOrEqual(Date.now() + 1);
    expect(typeof clock!.args!.host).toBe('string');
    expect(cpu!.args!.userMs).toBeGreaterThan(0);
    expect(cpu!.ts).toBeGreaterThan(clock!.ts);
  });

  it('a shard count above the electrodes fails the run with a message naming the flag', async () => {
    const messages: EngineToHost[] = [];
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'], shard: { index: 5, count: 6 } });
    const run = startEngineRun({ type: 'start', runId: 'x', runDir: dir, config, originNs: process.hrtime.bigint().toString() }, fakeEngineDeps(), (m) => messages.push(m));
    await run.done;
    const error = messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error.message).toMatch(/--shard 5\/6: the dataset has 4 electrodes/);
  });
});

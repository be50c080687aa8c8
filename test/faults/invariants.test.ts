/**
 * The invariants the fault tests rest on can fail: a listing that calls a dead run running, a run
 * failed without a reason, an error with a stack, and a trace that Perfetto would misdraw are each
 * caught.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunIndexEntry } from '../../src/shared/api';
import { expectHonestListing, TRACE_CHECK, traceCheck } from './invariants';

const entry = (id: string, status: RunIndexEntry['status'], error?: string): RunIndexEntry => ({
  id, status, createdAt: '2025-01-01T00:00:00.000Z', dataset: 'preset:tiny', backend: 'wasm', strategies: ['reference'], headline: [],
  ...(error === undefined ? {} : { error: { name: 'AppError', code: 'RUN_FAILED', message: error } }),
});

describe('expectHonestListing', () => {
  it('passes an honest listing', () => {
    expect(() => expectHonestListing([entry('a', 'failed', 'interrupted: gone'), entry('b', 'completed')], { a: { status: 'failed', error: /^interrupted/ } }, 't')).not.toThrow();
  });

  it('catches a run left running, a missing run, a failure without a reason, and a stack', () => {
    expect(() => expectHonestListing([entry('a', 'running')], {}, 't')).toThrow(/run a is running/);
    expect(() => expectHonestListing([entry('a', 'running')], { a: 'failed' }, 't')).toThrow();
    expect(() => expectHonestListing([], { a: 'failed' }, 't')).toThrow(/run a is not listed/);
    expect(() => expectHonestListing([entry('a', 'failed')], { a: 'failed' }, 't')).toThrow(/says why/);
    expect(() => expectHonestListing([entry('a', 'failed', 'boom\n    at f (x.ts:1:1)')], { a: 'failed' }, 't')).toThrow(/error/);
  });
});

describe('traceCheck', () => {
  it('passes a valid trace and fails one with partially overlapping spans', async (ctx) => {
    if (!existsSync(TRACE_CHECK)) return ctx.skip(`trace-check is not at ${TRACE_CHECK}`);
    const samples = join(dirname(TRACE_CHECK), 'samples');
    expect(await traceCheck(join(samples, 'valid.json'))).toEqual({ ok: true });
    expect(await traceCheck(join(samples, 'overlap.json'))).toMatchObject({ ok: false, output: expect.stringMatching(/overlap/i) });
  });
});

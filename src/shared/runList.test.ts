import { describe, expect, it } from 'vitest';
import { isRefusedInput, statusWord, type RunIndexEntry } from './runList';

const entry = (extra: Partial<RunIndexEntry>): RunIndexEntry => ({
  id: 'r', status: 'failed', createdAt: '2026-01-01T00:00:00Z', dataset: 'bad.npz', backend: 'wasm', strategies: ['reference'], headline: [], ...extra,
});
const dataError = { name: 'AppError' as const, code: 'E026' as const, message: 'bad.npz: spike times are NaN' };

describe('isRefusedInput', () => {
  it('is a run that failed on a data-format error before measuring anything', () => {
    expect(isRefusedInput(entry({ error: dataError }))).toBe(true);
    expect(statusWord(entry({ error: dataError }))).toBe('refused');
  });

  it('is not a run that broke otherwise, measured something first, or did not fail', () => {
    expect(isRefusedInput(entry({ error: { ...dataError, code: 'RUN_FAILED' } }))).toBe(false);
    expect(isRefusedInput(entry({ error: dataError, headline: [{ strategy: 'reference', totalMedianMs: 12 }] }))).toBe(false);
    expect(isRefusedInput(entry({ status: 'cancelled', error: dataError }))).toBe(false);
    expect(isRefusedInput(entry({}))).toBe(false);
    expect(statusWord(entry({ status: 'completed' }))).toBe('completed');
  });
});

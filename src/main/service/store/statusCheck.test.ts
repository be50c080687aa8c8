import { describe, expect, it } from 'vitest';
import { damagedEntry, statusProblem } from './statusCheck';
import { finishedStatus } from './runStoreTesting.testdata';

const ID = '20250101-000000-abcdef';

describe('statusProblem', () => {
  it('accepts a status the store wrote', () => {
    expect(statusProblem(finishedStatus(ID, { ownerPid: 12, label: 'x', error: { name: 'AppError', code: 'IO', message: 'm' } }), ID)).toBeUndefined();
  });

  it('names the first field of the wrong type', () => {
    expect(statusProblem({ ...finishedStatus(ID), createdAt: 12345 }, ID)).toMatch(/createdAt is 12345/);
    expect(statusProblem({ ...finishedStatus(ID), strategies: [1] }, ID)).toMatch(/strategies/);
    expect(statusProblem({ ...finishedStatus(ID), status: 'done' }, ID)).toMatch(/status is "done"/);
    expect(statusProblem({ ...finishedStatus(ID), headline: [{ strategy: 3 }] }, ID)).toMatch(/headline/);
    expect(statusProblem({ ...finishedStatus(ID), ownerPid: -1 }, ID)).toMatch(/ownerPid/);
    expect(statusProblem({ ...finishedStatus(ID), ownerStart: '12' }, ID)).toMatch(/ownerStart/);
    expect(statusProblem(finishedStatus(ID, { ownerPid: 12, ownerStart: 0 }), ID)).toBeUndefined();
  });

  it('refuses what is not an object of this run', () => {
    expect(statusProblem([], ID)).toMatch(/not a JSON object/);
    expect(statusProblem(finishedStatus('20250101-000000-000000'), ID)).toMatch(/not the folder's/);
  });
});

describe('damagedEntry', () => {
  it('is a failed run dated by its id, saying why', () => {
    const e = damagedEntry(ID, '/runs/x/status.json', 'it nests too deep');
    expect(e.status).toBe('failed');
    expect(e.createdAt).toBe('2025-01-01T00:00:00.000Z');
    expect(e.error?.message).toMatch(/^damaged: \/runs\/x\/status.json cannot be used \(it nests too deep\)/);
  });
});

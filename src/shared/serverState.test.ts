import { describe, expect, it } from 'vitest';
import type { SystemInfo } from './api';
import { runsFolderOf } from './serverState';

const info = (extra: Record<string, unknown>): SystemInfo => ({
  version: '1.0.0', tfjsVersion: '4', node: '20', platform: 'linux', cpus: 2, totalMemoryBytes: 1, backends: [], defaultBackend: 'wasm', ...extra,
}) as SystemInfo;

describe('the runs folder in getInfo\'s answer', () => {
  it('reads the state a service sends, and nothing from an older service or a malformed one', () => {
    const readOnly = { path: '/archive', canStartRuns: false, code: 'EROFS', reason: 'the runs folder /archive is not writable (EROFS)…' };
    expect(runsFolderOf(info({ runsFolder: readOnly }))).toEqual(readOnly);
    expect(runsFolderOf(info({ runsFolder: { path: '/runs', canStartRuns: true } }))).toEqual({ path: '/runs', canStartRuns: true });
    expect(runsFolderOf(info({}))).toBeUndefined();
    expect(runsFolderOf(info({ runsFolder: { path: '/runs', canStartRuns: 'yes' } }))).toBeUndefined();
    expect(runsFolderOf(info({ runsFolder: { path: '/runs', canStartRuns: false, reason: 7 } }))).toBeUndefined();
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../shared/config';
import { finishedStatus, writeRunFolders } from '../service/store/runStoreTesting.testdata';
import { runCliCaptured } from './testing';

const CANCELLED = '20250101-000002-000002';
const NO_REPORT = '20250101-000001-000001';
const COMPLETED = '20250101-000000-000000';

describe('kde-profiler list', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kde-list-'));
    const strategies = ['reference', 'logsumexp-tiled'];
    await writeRunFolders(dir, [
      finishedStatus(COMPLETED, { createdAt: '2025-01-01T00:00:00.000Z', headline: [{ strategy: 'reference', totalMedianMs: 26 }] }),
      finishedStatus(NO_REPORT, { createdAt: '2025-01-01T00:00:01.000Z', status: 'cancelled', strategies }),
      finishedStatus(CANCELLED, { createdAt: '2025-01-01T00:00:02.000Z', status: 'cancelled', strategies, headline: [{ strategy: 'reference', totalMedianMs: 25.6, firstCallOnly: true }] }),
    ]);
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies });
    for (const [id, fraction, label] of [[CANCELLED, 0.163, 'logsumexp-tiled · repeat 3/10'], [NO_REPORT, 0.05, 'logsumexp-tiled · cold']] as const) {
      await writeFile(join(dir, id, 'config.json'), JSON.stringify(config));
      await writeFile(join(dir, id, 'progress.json'), JSON.stringify({ type: 'progress', runId: id, progress: { fraction, label, elapsedMs: 9000, basis: 'time' } }));
    }
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says how far a cancelled run got, beside what it measured, a first call marked as one (not a warm median)', async () => {
    const r = await runCliCaptured(dir, ['list', '--runs-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const line = (id: string) => r.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
    expect(line(CANCELLED)).toMatch(/cancelled .* stopped at 16 % \(logsumexp-tiled · repeat 3\/10\); reference 25\.6 ms \(first call\)$/);
    expect(line(NO_REPORT)).toMatch(/stopped at 5 % \(logsumexp-tiled · cold\); nothing measured \(asked: reference, logsumexp-tiled\)$/);
    expect(line(COMPLETED)).toMatch(/completed .* reference 26 ms$/);
  });
});

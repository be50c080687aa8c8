/**
 * The command line's JavaScript build (out/cli/, made at install by scripts/build-cli.mjs): before,
 * every command compiled the TypeScript sources through tsx at start (`--help` 0.7–0.9 s here against
 * 0.05 s for `node -e 0`). bin/kde-profiler.mjs runs the build while no source is newer than it, and
 * the sources otherwise; the build itself runs a recorded run end to end (its engine process and
 * pool workers are built entries too). Timings belong to the note, not here: this checks which runs.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newestMtimeMs } from '../scripts/newestMtime.mjs';
import { runCli, type CliResult } from './cliRunner';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT = join(ROOT, 'out', 'cli', 'main.mjs');

/** why the build cannot be checked here, or undefined: it exists and no source is newer (a fresh install) */
function staleBuild(): string | undefined {
  if (!existsSync(BUILT)) return 'out/cli is not built (npm ci builds it; npm run build:cli)';
  return newestMtimeMs(join(ROOT, 'src')) > statSync(BUILT).mtimeMs ? 'a source is newer than out/cli (npm run build:cli)' : undefined;
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(ROOT, args, env);

describe('the command line built to JavaScript', () => {
  it('runs from its build when it is fresh, and from the sources when asked', async (ctx) => {
    const stale = staleBuild();
    if (stale) return ctx.skip(stale);
    const built = await cli(['info']);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain('command line: its JavaScript build (out/cli)');
    const source = await cli(['info'], { KDE_PROFILER_FROM_SOURCE: '1' });
    expect(source.stdout).toContain('command line: from the TypeScript sources through tsx');
  }, 120_000);

  it('records a run end to end from the build: its engine process and pool workers are built entries', async (ctx) => {
    const stale = staleBuild();
    if (stale) return ctx.skip(stale);
    const runsDir = await mkdtemp(join(tmpdir(), 'kde-cli-build-'));
    try {
      const r = await cli(['run', '--data', 'preset:small', '--strategy', 'reference', '--workers', '2', '--runs-dir', runsDir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^reference\s+ok/m);
      expect(r.stdout).toContain('× 2 workers');
    } finally {
      await rm(runsDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * The .npz files both sides of the peer bench read, kept in a cache folder outside the repository
 * and made only when missing: the synthetic presets by the float64 reference tool
 * (shared/tools/kde_reference.py, seed 5), the production recordings (the linear track and the open
 * field) by scripts/make-recording.ts.
 * Each is written under a temporary name and renamed, so an interrupted run leaves no half file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/shared/errors';

const PEER_SEED = 5;

export interface DataTools {
  cacheDir: string;
  python: string;
  /** path of kde_reference.py */
  referenceTool: string;
  repoRoot: string;
}

function run(what: string, command: string, args: string[], cwd: string): void {
  process.stderr.write(`  making ${what}: ${command} ${args.join(' ')}\n`);
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.error) throw new AppError('IO', `could not start ${command} to make ${what} (${r.error.message}); check that it is installed and on PATH.`);
  if (r.status !== 0) throw new AppError('RUN_FAILED', `${command} ${args.join(' ')} failed with exit code ${r.status} while making ${what}; see its output above.`);
}

/** kde_reference.py's `large`/`realistic`/… preset at seed 5 with 2 features, made when missing */
export function presetFile(preset: string, tools: DataTools): string {
  const stem = `kde_ref_${preset}_seed${PEER_SEED}_D2`;
  const path = join(tools.cacheDir, `${stem}.npz`);
  if (existsSync(path)) return path;
  if (!existsSync(tools.referenceTool)) {
    throw new AppError('NOT_FOUND', `the reference tool ${tools.referenceTool} is missing, so ${stem}.npz cannot be made; pass --reference-tool PATH.`);
  }
  mkdirSync(tools.cacheDir, { recursive: true });
  const partial = `${stem}.partial-${process.pid}`;
  run(`${stem}.npz`, tools.python, [tools.referenceTool, '--preset', preset, '--seed', String(PEER_SEED), '--out', tools.cacheDir, '--name', partial], tools.repoRoot);
  renameSync(join(tools.cacheDir, `${partial}.npz`), path);
  return path;
}

/** make-recording.ts's two arenas: the linear track, or the open field shaped like NLD's production data */
export type RecordingShape = 'track' | 'open-field';

/** the production recording (make-recording.ts defaults, `--open-field` for the 2-D one) decoding its last `decodeLast` fraction */
export function recordingFile(decodeLast: number, tools: DataTools, shape: RecordingShape = 'track'): string {
  const stem = shape === 'track' ? 'recording' : 'open-field-recording';
  const path = join(tools.cacheDir, `${stem}-decode-last-${decodeLast}.npz`);
  if (existsSync(path)) return path;
  mkdirSync(tools.cacheDir, { recursive: true });
  const partial = `${path}.partial-${process.pid}.npz`;
  const flags = shape === 'track' ? [] : ['--open-field'];
  try {
    run(`the production recording${shape === 'track' ? '' : ' (open field)'}`, process.execPath,
      ['--import', 'tsx', 'scripts/make-recording.ts', partial, ...flags, '--decode-last', String(decodeLast)], tools.repoRoot);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  return path;
}

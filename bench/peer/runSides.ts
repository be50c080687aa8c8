/**
 * Runs one side of the peer bench in its own process and reads back the JSON line it prints: the
 * NumPy peer (python3 kde_peer.py) or the engine for one strategy (engineSide.ts). Their stderr
 * passes through, so progress and warnings show while they run.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AppError } from '../../src/shared/errors';
import type { EngineResult, NldResult, PeerResult, SideFailure } from './sideResults';

export interface SideOptions {
  repoRoot: string;
  python: string;
  /** OPENBLAS_NUM_THREADS for the peer; null keeps OpenBLAS's default (every core) */
  peerThreads: number | null;
  backend: string;
  /** engine pool workers (1: the engine on one thread) */
  workers: number;
  repeats: number;
  warmup: number;
  cellLimitS: number;
}

/** The last line of a side's stdout that is a JSON object: its result (anything printed before it is not). */
function lastJsonLine(stdout: string): string | undefined {
  return stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
}

function runJson<T>(what: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): T {
  const r = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, encoding: 'utf8' });
  if (r.error) throw new AppError('IO', `could not start ${command} for ${what} (${r.error.message}); check that it is installed and on PATH.`);
  const line = lastJsonLine(r.stdout);
  if (r.status !== 0 || !line) {
    const how = r.signal ? `was killed by ${r.signal}` : `exited with code ${r.status}`;
    throw new AppError('RUN_FAILED', `${what} ${how}${line ? '' : ' without printing its JSON result'}; see its output above.`);
  }
  return JSON.parse(line) as T;
}

/** the NumPy peer on `file`, writing its last likelihood to `llPath` for the engine to compare */
export function runPeer(file: string, llPath: string, o: SideOptions): PeerResult {
  const script = join(o.repoRoot, 'bench', 'peer', 'kde_peer.py');
  const args = [script, file, '--repeats', String(o.repeats), '--warmup', String(o.warmup), '--cell-limit-s', String(o.cellLimitS), '--save-ll', llPath];
  const env = o.peerThreads === null ? process.env : { ...process.env, OPENBLAS_NUM_THREADS: String(o.peerThreads) };
  return runJson<PeerResult>('the NumPy peer', o.python, args, o.repoRoot, env);
}

export function runEngine(file: string, strategy: string, peerLl: string | null, o: SideOptions): EngineResult {
  const args = [
    '--import', 'tsx', join(o.repoRoot, 'bench', 'peer', 'engineSide.ts'), file,
    '--strategy', strategy, '--backend', o.backend, '--workers', String(o.workers),
    '--repeats', String(o.repeats), '--warmup', String(o.warmup), '--cell-limit-s', String(o.cellLimitS),
    ...(peerLl ? ['--peer-ll', peerLl] : []),
  ];
  return runJson<EngineResult>(`the engine (${strategy}, ${o.backend}, ${o.workers} worker(s))`, process.execPath, args, o.repoRoot);
}

/** Where the bench finds non_local_detector: its src/ folder and a Python that has JAX and NLD's imports. */
export interface NldOptions {
  src: string | undefined;
  python: string;
  variants: string[];
}

/** nld_peer.py's exit status when JAX or NLD cannot be imported: a skip, not a failure */
const NLD_UNAVAILABLE = 3;

/**
 * NLD's fit and non-local predict on `file` (bench/peer/nld_peer.py), compared with the NumPy
 * peer's likelihood at `peerLl`; `{ skipped }` with nld_peer's reason where NLD is not importable.
 */
export function runNld(file: string, variant: string, peerLl: string | null, o: SideOptions, nld: NldOptions): NldResult | (SideFailure & { skipped?: boolean }) {
  const script = join(o.repoRoot, 'bench', 'peer', 'nld_peer.py');
  const args = [script, file, '--variant', variant, '--repeats', String(o.repeats), '--warmup', String(o.warmup), '--cell-limit-s', String(o.cellLimitS),
    ...(nld.src ? ['--nld-src', nld.src] : []), ...(peerLl ? ['--peer-ll', peerLl] : [])];
  const r = spawnSync(nld.python, args, { cwd: o.repoRoot, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, encoding: 'utf8' });
  if (r.error) return { error: `could not start ${nld.python} for NLD (${r.error.message}); pass --nld-python PATH`, skipped: true };
  process.stderr.write(r.stderr);
  if (r.status === NLD_UNAVAILABLE) return { error: r.stderr.trim().split('\n').at(-1) ?? 'NLD is not importable', skipped: true };
  const line = lastJsonLine(r.stdout);
  if (r.status !== 0 || !line) return { error: `NLD ${variant} ${r.signal ? `was killed by ${r.signal}` : `exited with code ${r.status}`}; see its output above` };
  return JSON.parse(line) as NldResult;
}

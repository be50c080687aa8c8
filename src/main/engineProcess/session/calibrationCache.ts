/**
 * The backend calibration, kept on disk so that a run measures the backend only once every few
 * days per machine: one JSON file in a folder the caller names, entries keyed by host name, CPU
 * model, backend, TensorFlow.js version and device. A missing, unreadable, stale or malformed entry
 * means measuring again; a file that cannot be written costs a measurement next time and nothing
 * else, so the run never fails because of the cache.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import type { BackendInfo } from '../../../shared/report';
import type { Calibration } from '../../engine/model';

export const CALIBRATION_FILE = 'calibration.json';
/**
 * 2: on wasm the matmul figure is the faster of the backend's matmul and the engine's packed product;
 * 3: on wasm the exp figure is the faster of the general exp and the engine's flushed exp
 */
const CACHE_VERSION = 3;
const DAY_MS = 24 * 3600 * 1000;
/** a driver, BIOS or load change shows within a week; a week is short enough to notice it */
export const CALIBRATION_MAX_AGE_MS = 7 * DAY_MS;

interface CacheFile {
  version: typeof CACHE_VERSION;
  entries: Record<string, Calibration>;
}

export interface Machine {
  hostname: string;
  cpuModel: string;
}

export interface CalibrationCacheOptions {
  maxAgeMs?: number;
  now?: () => Date;
  machine?: Machine;
  /** told when the cache could not be written (the measurement is returned all the same) */
  onWarning?: (message: string) => void;
}

export function thisMachine(): Machine {
  return { hostname: hostname(), cpuModel: cpus()[0]?.model?.trim() || 'unknown CPU' };
}

export type CalibratedBackend = Pick<BackendInfo, 'name' | 'device' | 'tfjsVersion'>;

export function calibrationKey(backend: CalibratedBackend, machine: Machine = thisMachine()): string {
  return [machine.hostname, machine.cpuModel, backend.name, `tfjs ${backend.tfjsVersion}`, backend.device].join(' | ');
}

const positive = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;

function isCalibration(v: unknown): v is Calibration {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    typeof c.backend === 'string' &&
    typeof c.device === 'string' &&
    positive(c.matmulGflops) &&
    positive(c.expGelemsPerS) &&
    positive(c.logGelemsPerS) &&
    (c.bandwidthGBps === undefined || positive(c.bandwidthGBps)) &&
    typeof c.measuredAt === 'string' &&
    !Number.isNaN(Date.parse(c.measuredAt)) &&
    typeof c.durationMs === 'number'
  );
}

function isFresh(c: Calibration, now: Date, maxAgeMs: number): boolean {
  const ageMs = now.getTime() - Date.parse(c.measuredAt);
  return ageMs >= 0 && ageMs <= maxAgeMs;
}

/** The valid, fresh entries of the file; none when it is missing or not ours. */
async function readEntries(file: string, now: Date, maxAgeMs: number): Promise<Record<string, Calibration>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return {};
  }
  const cache = parsed as Partial<CacheFile> | null;
  if (cache?.version !== CACHE_VERSION || typeof cache.entries !== 'object' || cache.entries === null) return {};
  const out: Record<string, Calibration> = {};
  for (const [key, value] of Object.entries(cache.entries)) {
    if (isCalibration(value) && isFresh(value, now, maxAgeMs)) out[key] = value;
  }
  return out;
}

/** Write-then-rename, so a reader (another engine process) never sees half a file. */
async function writeEntries(dir: string, file: string, entries: Record<string, Calibration>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${randomUUID()}.tmp`;
  const body: CacheFile = { version: CACHE_VERSION, entries };
  try {
    await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * The calibration of this machine and backend: from `cacheDir` when a fresh one is there,
 * otherwise measured now and stored (stale entries of other backends are dropped on the way).
 */
export async function calibrated(
  backend: CalibratedBackend,
  measure: () => Promise<Calibration>,
  cacheDir: string,
  options: CalibrationCacheOptions = {},
): Promise<Calibration> {
  const maxAgeMs = options.maxAgeMs ?? CALIBRATION_MAX_AGE_MS;
  const now = options.now ?? (() => new Date());
  const key = calibrationKey(backend, options.machine);
  const file = join(cacheDir, CALIBRATION_FILE);
  const hit = (await readEntries(file, now(), maxAgeMs))[key];
  if (hit) return hit;
  const measured = await measure();
  try {
    // read again: another process may have stored its backend while this one measured
    const entries = await readEntries(file, now(), maxAgeMs);
    await writeEntries(cacheDir, file, { ...entries, [key]: measured });
  } catch (e) {
    options.onWarning?.(
      `could not store the backend calibration in ${file} (${(e as Error).message}); the next run measures again. ` +
        'Check that the folder is writable.',
    );
  }
  return measured;
}

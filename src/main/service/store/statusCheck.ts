/**
 * The runtime check of a run's status.json: a file anyone may have written is used only when every
 * field has the type the store and the pages expect (createdAt a string, strategies strings …).
 * A status that fails is listed as a damaged run, with the reason.
 */
import { AppError } from '../../../shared/errors';
import type { RunStatusFile } from './runStore';

const STATUSES = new Set(['queued', 'running', 'completed', 'failed', 'cancelled']);

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const optStr: Check = (v) => v === undefined || typeof v === 'string';
const optInt: Check = (v) => v === undefined || (Number.isInteger(v) && (v as number) > 0);
const optTicks: Check = (v) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0);
const strings: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const optNum: Check = (v) => v === undefined || typeof v === 'number';
const optBool: Check = (v) => v === undefined || typeof v === 'boolean';
const headline: Check = (v) => Array.isArray(v) && v.every((h: unknown) =>
  typeof h === 'object' && h !== null && str((h as Record<string, unknown>).strategy) &&
  ['encodeMedianMs', 'decodeMedianMs', 'totalMedianMs'].every((k) => optNum((h as Record<string, unknown>)[k])) &&
  optBool((h as Record<string, unknown>).firstCallOnly));
const error: Check = (v) => v === undefined || (typeof v === 'object' && v !== null &&
  str((v as Record<string, unknown>).code) && str((v as Record<string, unknown>).message));

const FIELDS: Record<string, Check> = {
  status: (v) => STATUSES.has(v as string), createdAt: str, finishedAt: optStr, label: optStr, dataset: str, backend: str,
  strategies: strings, headline, error, ownerPid: optInt, ownerStart: optTicks, ownerStore: optStr, enginePid: optInt,
};

/** Why `value` is not a usable status of run `id`; undefined when it is. */
export function statusProblem(value: unknown, id: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const s = value as Record<string, unknown>;
  if (s.id !== id) return `its id is ${JSON.stringify(s.id)}, not the folder's ${id}`;
  for (const [key, ok] of Object.entries(FIELDS)) {
    if (!ok(s[key])) return `its ${key} is ${JSON.stringify(s[key]) ?? 'missing'}, which is not a valid ${key}`;
  }
  return undefined;
}

const DAMAGED = 'damaged: ';

/** The listing of a run whose status cannot be used: failed, with the reason, its files left as they are. */
export function damagedEntry(id: string, path: string, reason: string): RunStatusFile {
  const message = `${DAMAGED}${path} cannot be used (${reason}); the run's other files are left as they are: delete the run, or repair the file.`;
  return {
    id, status: 'failed', createdAt: createdAtOf(id), dataset: '?', backend: '?', strategies: [], headline: [],
    error: new AppError('IO', message, { file: path, key: id }).toJSON(),
  };
}

/** whether an entry is one damagedEntry made: its status is read again, in case it was repaired */
export function isDamagedEntry(e: { error?: { message: string } }): boolean {
  return e.error?.message.startsWith(DAMAGED) === true;
}

/** The time a run id names (20250101-120000-…), as the ISO time the listing sorts by. */
function createdAtOf(id: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : new Date(0).toISOString();
}

/**
 * Who owns a run, in a form a reused pid cannot fake: the owner's pid plus the time that process
 * started. Pids are recycled, so a pid that is alive says only that *some* process has it; the start
 * time says whether it is still the process that wrote the status.
 *
 * On Linux the start time is field 22 of /proc/PID/stat (clock ticks since boot): it never changes
 * for a process, and two processes with one pid in turn cannot share it. Elsewhere there is no cheap
 * way to read it, so the start time is left out and liveness falls back to the pid alone (a reused
 * pid can still keep such a run "running" there; deleting it by hand is the way out).
 *
 * The same file gives a process's CPU time, which the run queue uses to tell a hung engine from a busy one.
 */
import { readFileSync } from 'node:fs';

import { processAlive as pidAlive } from '../../data';

/** whether a process with this pid exists (the service's own name for data/'s check, which its importers may not reach) */
export function processAlive(pid: number): boolean {
  return pidAlive(pid);
}

/** /proc/PID/stat is one short line; anything longer is not it */
const MAX_STAT_BYTES = 4096;

/**
 * The fields of /proc/PID/stat after the command name. The name (field 2) is in parentheses and may
 * itself hold spaces and parentheses, so the fields are counted from the last ')'.
 */
function statFields(pid: number): string[] | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, MAX_STAT_BYTES);
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // fields[0] is field 3 (the state)
  return text.slice(close + 1).trim().split(/\s+/);
}

/** The start time of process `pid` in clock ticks since boot; undefined off Linux or when it is gone. */
export function processStartTicks(pid: number): number | undefined {
  const ticks = Number(statFields(pid)?.[22 - 3]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
}

/**
 * The CPU time process `pid` has used, all its threads (user + system, fields 14 and 15 of
 * /proc/PID/stat, in clock ticks); undefined off Linux or when it is gone. A stopped process's does
 * not advance; a busy one's does even while its event loop is held.
 */
export function processCpuTicks(pid: number): number | undefined {
  const fields = statFields(pid);
  const ticks = Number(fields?.[14 - 3]) + Number(fields?.[15 - 3]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
}

let ownStart: number | undefined | null = null;

/** This process's own start time (read once: it cannot change). */
export function ownStartTicks(): number | undefined {
  if (ownStart === null) ownStart = processStartTicks(process.pid);
  return ownStart;
}

/** What a status file records of its owner. */
export interface OwnerRecord {
  ownerPid?: number;
  /** the owner's start time (processStartTicks); absent in status files older than it, and off Linux */
  ownerStart?: number;
}

/**
 * Whether the process that recorded itself as the owner still runs. A status without a start time
 * (written before it was recorded, or off Linux) is judged by its pid alone, as it always was.
 */
export function ownerAlive(owner: OwnerRecord): boolean {
  if (owner.ownerPid === undefined || !processAlive(owner.ownerPid)) return false;
  if (owner.ownerStart === undefined) return true;
  const now = processStartTicks(owner.ownerPid);
  // a start time that cannot be read (another platform, /proc hidden) cannot prove the pid was reused
  return now === undefined || now === owner.ownerStart;
}

/** The owner fields to stamp on a status this process runs. */
export function ownerStamp(): { ownerPid: number; ownerStart?: number } {
  const start = ownStartTicks();
  return start === undefined ? { ownerPid: process.pid } : { ownerPid: process.pid, ownerStart: start };
}

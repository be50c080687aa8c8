/**
 * The engine's scheduling priority. A service that serves pages (the app, web mode) asks its engine
 * to run below normal priority: the engine's workers fill every core, and at equal priority the
 * service's replies to its pages wait behind them (on 2 cores, a static file's p99 went from about
 * 130 ms to about 390 ms). The engine still gets every cycle nothing else wants, so a run on an
 * otherwise idle machine takes as long as before. The command line leaves the priority alone.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const MAX_NICENESS = 19;

/**
 * Lowers this process's priority to `niceness` (a higher nice value; never raises it, which would
 * need privileges) and returns the nice value it runs at. On Linux a nice value is a thread's, and
 * a new thread inherits its creator's: every thread running now is lowered (V8's compiler and
 * collector helpers among them), and the engine's worker threads, started later, inherit it.
 */
export function lowerPriority(niceness: number | undefined): number {
  const current = currentNiceness();
  if (niceness === undefined || !Number.isInteger(niceness) || niceness <= current) return current;
  const target = Math.min(niceness, MAX_NICENESS);
  for (const id of [0, ...otherThreadIds()]) {
    try {
      setPriority(id, target);
    } catch {
      // a platform that refuses leaves the engine at its priority; the run records which one it was
    }
  }
  return currentNiceness();
}

/**
 * On Linux, this process's threads by id (setpriority takes a thread id there); elsewhere none.
 * A thread that ends between the listing and its setpriority call makes the call fail (caught);
 * its id would have to be reused by another process of the same user in those microseconds for
 * the call to lower anything else.
 */
function otherThreadIds(): number[] {
  if (process.platform !== 'linux') return [];
  try {
    return readdirSync('/proc/self/task').map(Number).filter((tid) => Number.isInteger(tid) && tid !== process.pid);
  } catch {
    return [];
  }
}

/** this thread's nice value (0 where the platform cannot say) */
export function currentNiceness(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

/** the outcome's `niceness` field: present only when the engine did not run at normal priority */
export function nicenessOf(niceness: number): { niceness?: number } {
  return niceness !== 0 ? { niceness } : {};
}

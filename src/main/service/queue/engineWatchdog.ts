/**
 * Notices an engine that stopped responding: a process that was stopped (SIGSTOP, a debugger), or
 * is blocked for good (a read from a pipe no one writes). The engine sends a heartbeat every
 * HEARTBEAT_INTERVAL_MS and progress as it goes; when neither has come for the timeout, the engine
 * is taken for hung.
 *
 * The heartbeat runs on the engine's main thread, which wasm compute can hold for long stretches.
 * So on Linux the engine's CPU time counts as a sign of life too: a busy engine's advances, a stopped
 * or blocked one's does not. Elsewhere only messages count, hence the generous default.
 */
import { HEARTBEAT_INTERVAL_MS } from '../../engineProtocol';
import { processCpuTicks } from '../store';

/** how long an engine may say nothing (and, on Linux, use no CPU) before its run fails */
export const DEFAULT_ENGINE_TIMEOUT_MS = 120_000;
/** the environment variable that sets that time, in seconds (e.g. 600 for a slow machine) */
export const ENGINE_TIMEOUT_ENV = 'KDE_PROFILER_ENGINE_TIMEOUT_S';

/**
 * The timeout from KDE_PROFILER_ENGINE_TIMEOUT_S (seconds, a positive number); the default when it
 * is unset or not such a number. Never below two heartbeats, or a healthy engine would be taken for hung.
 */
export function engineTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[ENGINE_TIMEOUT_ENV];
  const seconds = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) return DEFAULT_ENGINE_TIMEOUT_MS;
  return Math.max(2 * HEARTBEAT_INTERVAL_MS, Math.round(seconds * 1000));
}

export interface EngineWatchdogOptions {
  /** the engine process, once spawned; without one only messages count */
  pid: () => number | undefined;
  timeoutMs: number;
  /** called once, with how long the engine has been silent */
  onStalled(silentMs: number): void;
  /** tests inject these; defaults: the monotonic clock and /proc */
  nowMs?: () => number;
  cpuTicks?: (pid: number) => number | undefined;
}

export interface EngineWatchdog {
  /** a message came from the engine */
  alive(): void;
  stop(): void;
}

/** Starts watching; check() is exposed for tests that drive the clock themselves. */
export function watchEngine(o: EngineWatchdogOptions): EngineWatchdog & { check(): void } {
  const now = o.nowMs ?? (() => performance.now());
  const cpuOf = o.cpuTicks ?? processCpuTicks;
  let lastSign = now();
  const cpuNow = (): number | undefined => {
    const pid = o.pid();
    return pid === undefined ? undefined : cpuOf(pid);
  };
  let lastCpu = cpuNow();
  let stopped = false;
  const check = (): void => {
    if (stopped) return;
    const cpu = cpuNow();
    if (cpu !== undefined && lastCpu !== undefined && cpu > lastCpu) lastSign = now();
    lastCpu = cpu;
    const silent = now() - lastSign;
    if (silent < o.timeoutMs) return;
    stop();
    o.onStalled(silent);
  };
  // often enough to notice within a few percent of the timeout, never more than once a second
  const timer = setInterval(check, Math.min(1000, Math.max(50, o.timeoutMs / 8)));
  // the watchdog alone never keeps the service running
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return {
    alive: () => {
      lastSign = now();
    },
    stop,
    check,
  };
}

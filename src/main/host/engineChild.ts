/**
 * The engine process as the host sees it, whatever started it: `child_process.fork` under Node
 * (forkEngine, here) or Electron's utilityProcess (adaptUtilityProcess, fed by main/index.ts, which
 * is the only place that may import electron).
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HostToEngine } from '../engineProtocol';

export interface EngineExit {
  code: number | null;
  signal: string | null;
}

export interface EngineChild {
  readonly pid: number | undefined;
  send(message: HostToEngine): void;
  onMessage(listener: (message: unknown) => void): void;
  /** fires once, after the last message of the process has been delivered */
  onExit(listener: (exit: EngineExit) => void): void;
  /** SIGKILL: cancel's last resort, and what a crashed-looking process gets */
  kill(): void;
  /** the last few kilobytes the process wrote to stderr, to tell an out-of-memory death from others */
  stderrTail(): string;
}

export type SpawnEngine = () => EngineChild;

const STDERR_TAIL_CHARS = 16_384;
/** after 'exit', wait this long for the IPC channel to drain before reporting the exit */
const DRAIN_GRACE_MS = 250;

/** Whether this module runs from the TypeScript sources (else from a JavaScript build, out/cli or out/main). */
const fromSource = import.meta.url.endsWith('.ts');

/** The engine process's entry: engineMain.ts in its own wing from source, engineMain.mjs beside this module in the CLI's build. */
export function defaultEngineEntry(): string {
  return fileURLToPath(new URL(fromSource ? '../engineProcess/engineMain.ts' : './engineMain.mjs', import.meta.url));
}

/** tsx resolved from this module, so the child loads it whatever the working directory is. */
function tsxLoaderUrl(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(require.resolve('tsx')).href;
}

const entryIsTypeScript = (entry: string): boolean => entry.endsWith('.ts');

export interface ForkOptions {
  /** a .ts entry to run instead of engineMain.ts (tests use small fake engines) */
  entry?: string;
  env?: NodeJS.ProcessEnv;
}

/** Starts an engine process under plain Node: structured-clone IPC, stderr kept for crash reasons. */
export function forkEngine(options: ForkOptions = {}): EngineChild {
  const child = fork(options.entry ?? defaultEngineEntry(), [], {
    // --expose-gc: the posterior stage collects garbage once before it takes its memory baseline
    execArgv: [...(entryIsTypeScript(options.entry ?? defaultEngineEntry()) ? ['--import', tsxLoaderUrl()] : []), '--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: options.env ?? process.env,
  });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exitListeners: ((exit: EngineExit) => void)[] = [];
  let exitInfo: EngineExit | undefined;
  let reported = false;
  let disconnected = false;
  const report = () => {
    if (reported || exitInfo === undefined) return;
    reported = true;
    for (const l of exitListeners) l(exitInfo);
  };
  child.on('disconnect', () => {
    disconnected = true;
    report();
  });
  child.on('exit', (code, signal) => {
    exitInfo = { code, signal };
    if (disconnected) report();
    else setTimeout(report, DRAIN_GRACE_MS);
  });
  child.on('error', (e) => {
    tail = (tail + `\n${e.message}`).slice(-STDERR_TAIL_CHARS);
    if (child.exitCode === null && child.signalCode === null && child.pid === undefined) {
      exitInfo = { code: -1, signal: null };
      report();
    }
  });
  return {
    get pid() {
      return child.pid;
    },
    send(message) {
      if (child.connected) child.send(message);
    },
    onMessage(listener) {
      child.on('message', listener);
    },
    onExit(listener) {
      exitListeners.push(listener);
      if (reported && exitInfo) listener(exitInfo);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    stderrTail: () => tail,
  };
}

/** The parts of Electron's UtilityProcess the host uses, typed here so host/ need not import electron. */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
  readonly stdout?: { on(event: 'data', listener: (chunk: Buffer | string) => void): unknown } | null;
  readonly stderr: { on(event: 'data', listener: (chunk: Buffer | string) => void): unknown } | null;
}

/**
 * Wraps a started utilityProcess as an EngineChild. Spawn it with `stdio: 'pipe'` so stderr can
 * tell an out-of-memory death; stdout is drained so a chatty library cannot fill the pipe.
 */
export function adaptUtilityProcess(proc: UtilityProcessLike): EngineChild {
  let tail = '';
  proc.stdout?.on('data', () => undefined);
  proc.stderr?.on('data', (chunk) => {
    tail = (tail + String(chunk)).slice(-STDERR_TAIL_CHARS);
  });
  const exitListeners: ((exit: EngineExit) => void)[] = [];
  let exitInfo: EngineExit | undefined;
  proc.on('exit', (code: number) => {
    exitInfo = { code, signal: null };
    for (const l of exitListeners) l(exitInfo);
  });
  return {
    get pid() {
      return proc.pid;
    },
    send: (message) => proc.postMessage(message),
    onMessage: (listener) => void proc.on('message', listener),
    onExit(listener) {
      exitListeners.push(listener);
      if (exitInfo) listener(exitInfo);
    },
    kill: () => void proc.kill(),
    stderrTail: () => tail,
  };
}

/**
 * One external engine as a child process: started in a process group of its own, its events
 * descriptor read line by line as it writes, its stdout and stderr kept as short tails, its whole
 * process tree's RSS sampled from outside, and stopped (SIGTERM, then SIGKILL after a grace
 * period, to the whole group) on a timeout, a cancel or a broken protocol. Resolves once the
 * child is gone, whatever happened; never rejects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { sampleProcessTreeRssBytes } from '../../recorder';
import { LineSplitter, parseEngineLine, type ExternalMessage } from './messages';
import { pollEvery } from './pollEvery';

export const KILL_GRACE_MS = 5000;
/** after the child exits, how long its pipes may stay open (a grandchild holding them) */
const DRAIN_MS = 2000;
const TAIL_LINES = 20;
const TAIL_LINE_CHARS = 500;
const RSS_INTERVAL_MS = 100;

export type StopReason = 'timeout' | 'cancel' | 'protocol' | 'spawn';

export interface ChildRunOptions {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** each message as it arrives; a throw is a protocol violation and stops the engine */
  onMessage(message: ExternalMessage): void;
  /** the process tree's RSS, about every 100 ms */
  onRss(bytes: number): void;
  killGraceMs?: number;
}

export interface ChildEnd {
  pid?: number;
  exitCode: number | null;
  signal: string | null;
  /** set when the profiler stopped the engine, or could not start it */
  stoppedFor?: StopReason;
  /** what went wrong in the profiler's eyes: the protocol violation, the spawn error */
  problem?: string;
  stdoutTail: string[];
  stderrTail: string[];
}

/** The last lines of a stream, each cut short: enough to say why an engine failed, bounded whatever it prints. */
class Tail {
  readonly lines: string[] = [];
  private partial = '';

  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split(/\r?\n|\r/);
    this.partial = parts.pop()!.slice(-TAIL_LINE_CHARS);
    for (const p of parts) this.add(p);
  }

  end(): string[] {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
    return this.lines;
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    this.lines.push(line.slice(0, TAIL_LINE_CHARS));
    if (this.lines.length > TAIL_LINES) this.lines.shift();
  }
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // the negative pid is the child's process group: its own children go with it
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

function sampleRss(pid: number, onRss: (bytes: number) => void): () => void {
  return pollEvery(RSS_INTERVAL_MS, () => sampleProcessTreeRssBytes(pid), (bytes) => {
    if (bytes > 0) onRss(bytes);
  });
}

export function runChild(o: ChildRunOptions): Promise<ChildEnd> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(o.argv[0]!, o.argv.slice(1), {
        cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32',
      });
    } catch (e) {
      resolve({ exitCode: null, signal: null, stoppedFor: 'spawn', problem: (e as Error).message, stdoutTail: [], stderrTail: [] });
      return;
    }
    new ChildWatch(child, o, resolve).watch();
  });
}

/** One started child until it is gone: its streams, its limits and how it ended. */
class ChildWatch {
  private readonly stdout = new Tail();
  private readonly stderr = new Tail();
  private readonly splitter: LineSplitter;
  private readonly timers: NodeJS.Timeout[] = [];
  private stoppedFor: StopReason | undefined;
  private problem: string | undefined;
  private ended = false;
  private stopRss: () => void = () => undefined;
  private readonly onAbort = () => this.stop('cancel');

  constructor(
    private readonly child: ChildProcess,
    private readonly o: ChildRunOptions,
    private readonly resolve: (end: ChildEnd) => void,
  ) {
    this.splitter = new LineSplitter((line, n) => o.onMessage(parseEngineLine(line, n)));
  }

  watch(): void {
    const { child, o } = this;
    const events = child.stdio[3] as Readable | null;
    events?.on('data', (chunk: Buffer) => this.events(chunk));
    events?.on('error', () => undefined);
    child.stdout?.on('data', (c: Buffer) => this.stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => this.stderr.push(c));
    if (child.pid !== undefined) this.stopRss = sampleRss(child.pid, (bytes) => o.onRss(bytes));
    o.signal.addEventListener('abort', this.onAbort, { once: true });
    if (o.signal.aborted) this.stop('cancel');
    this.timers.push(setTimeout(() => this.stop('timeout'), o.timeoutMs));
    child.on('error', (e) => {
      // a program that could not start (ENOENT, EACCES) has no pid and may never emit 'close'
      if (child.pid !== undefined) return;
      this.stoppedFor = 'spawn';
      this.problem = e.message;
      this.finish(null, null);
    });
    child.on('close', (code, sig) => this.finish(code, sig));
    child.on('exit', (code, sig) => {
      // whatever the engine left running in its group goes with it
      killGroup(child, 'SIGKILL');
      setTimeout(() => {
        for (const s of [events, child.stdout, child.stderr]) s?.destroy();
        this.finish(code, sig);
      }, DRAIN_MS).unref();
    });
  }

  private events(chunk: Buffer): void {
    if (this.stoppedFor === 'protocol') return;
    try {
      this.splitter.push(chunk);
    } catch (e) {
      this.stop('protocol', (e as Error).message);
    }
  }

  private stop(reason: StopReason, why?: string): void {
    if (this.stoppedFor || this.ended) return;
    this.stoppedFor = reason;
    this.problem = why;
    killGroup(this.child, 'SIGTERM');
    this.timers.push(setTimeout(() => killGroup(this.child, 'SIGKILL'), this.o.killGraceMs ?? KILL_GRACE_MS));
  }

  private finish(exitCode: number | null, signal: string | null): void {
    if (this.ended) return;
    this.ended = true;
    this.stopRss();
    for (const t of this.timers) clearTimeout(t);
    this.o.signal.removeEventListener('abort', this.onAbort);
    if (!this.stoppedFor) {
      try {
        this.splitter.end();
      } catch (e) {
        this.stoppedFor = 'protocol';
        this.problem = (e as Error).message;
      }
    }
    const { pid } = this.child;
    this.resolve({
      ...(pid !== undefined ? { pid } : {}), exitCode, signal,
      ...(this.stoppedFor ? { stoppedFor: this.stoppedFor } : {}), ...(this.problem ? { problem: this.problem } : {}),
      stdoutTail: this.stdout.end(), stderrTail: this.stderr.end(),
    });
  }
}

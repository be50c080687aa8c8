/**
 * What an external engine said, gathered as it says it, and the results row it becomes: its warm
 * calls as the fit, decode and total timings, its warm spans as the stage table, its counters'
 * last values, its peak RSS, and how it ended in words a lab can act on.
 */
import { AppError } from '../../../shared/errors';
import type { ExternalEngineInfo, ExternalEngineName } from '../../../shared/externalEngines';
import type { SpanRecord } from '../../../shared/events';
import type { StrategyResult } from '../../../shared/report';
import { timingStats } from '../../analysis';
import { RunningStageTimes } from '../../recorder';
import type { ChildEnd } from './childRun';
import type { CallMessage, ExternalMessage, HelloMessage, LogMessage, ResultMessage, TraceMessage } from './messages';

/** exit status by which an engine says it cannot run here (a package is missing) */
export const EXIT_UNAVAILABLE = 3;

export class ExternalRecord {
  hello: HelloMessage | undefined;
  done = false;
  peakRssBytes: number | undefined;
  /** the GPUs' highest used memory while the engine ran, where nvidia-smi answers */
  gpuPeakBytes: number | undefined;
  readonly calls: CallMessage[] = [];
  readonly results = new Map<string, ResultMessage>();
  readonly counters: Record<string, number> = {};
  /** the framework's trace of one call, when the engine captured one */
  trace: TraceMessage | undefined;
  /** the warm spans once the engine marks phases; until it does, every span (dropped at its first phase) */
  private stages = new RunningStageTimes();
  private sawPhases = false;
  private lastError: LogMessage | undefined;
  private lastLog: LogMessage | undefined;

  /** Takes one message in order; throws when it breaks the protocol's order. */
  take(m: ExternalMessage, asRecord?: SpanRecord): void {
    if (m.type !== 'hello' && !this.hello) throw new Error(`the first message must be 'hello', got '${m.type}'`);
    if (this.done) throw new Error(`'${m.type}' came after 'done'`);
    switch (m.type) {
      case 'hello':
        if (this.hello) throw new Error("a second 'hello'");
        this.hello = m;
        break;
      case 'span': this.stage(m.args.phase, asRecord); break;
      case 'counter': this.counters[m.name] = m.value; break;
      case 'call': this.calls.push(m); break;
      case 'result': this.results.set(m.name, m); break;
      case 'log':
        this.lastLog = m;
        if (m.level === 'error') this.lastError = m;
        break;
      case 'done': this.done = true; break;
      case 'trace': this.trace = m; break;
    }
  }

  rss(bytes: number): void {
    this.peakRssBytes = Math.max(this.peakRssBytes ?? 0, bytes);
  }

  /** warm spans make the stage table; an engine that marks no phase gets all its spans counted */
  private stage(phase: unknown, span: SpanRecord | undefined): void {
    if (!span) return;
    if (phase !== undefined && !this.sawPhases) {
      this.sawPhases = true;
      this.stages = new RunningStageTimes();
    }
    if (!this.sawPhases || phase === 'warm') this.stages.add(span);
  }

  /** the engine's own words for why it stopped: its last error line, else the last of its stderr */
  reason(end: ChildEnd): string {
    return this.lastError?.message ?? this.lastLog?.message ?? end.stderrTail.at(-1) ?? end.stdoutTail.at(-1) ?? 'it printed nothing';
  }

  info(name: string, command: string[], end: ChildEnd): ExternalEngineInfo {
    const h = this.hello;
    const info: ExternalEngineInfo = {
      engine: h?.engine ?? name, version: h?.version ?? '?', device: h?.device ?? '?', dtype: h?.dtype ?? '?',
      info: h?.info ?? {}, command, exitCode: end.exitCode,
    };
    if (end.signal) info.signal = end.signal;
    if (end.exitCode === EXIT_UNAVAILABLE && !end.stoppedFor) info.unavailable = this.reason(end);
    if (Object.keys(this.counters).length > 0) info.counters = { ...this.counters };
    if (this.peakRssBytes !== undefined) info.peakRssBytes = this.peakRssBytes;
    if (this.gpuPeakBytes !== undefined) info.peakGpuBytes = this.gpuPeakBytes;
    return info;
  }

  /** The results row: timings from the calls and stages from the warm spans, or the error when it failed. */
  toResult(name: ExternalEngineName, command: string[], end: ChildEnd, failure: AppError | undefined): StrategyResult {
    const result: StrategyResult = {
      strategy: name, resolved: [], status: failure ? 'failed' : 'ok',
      stages: this.stages.table(), kernels: [], external: this.info(name, command, end),
    };
    if (failure) {
      // a failed engine's calls are on its lane in the trace; timings beside a failure would read as results
      result.error = failure.toJSON();
      return result;
    }
    const cold = this.calls.find((c) => c.phase === 'cold');
    const warm = this.calls.filter((c) => c.phase === 'warm');
    const first = cold ?? warm[0];
    if (first) {
      result.encode = timingStats(first.fitMs, warm.map((c) => c.fitMs));
      result.decode = timingStats(first.predictMs, warm.map((c) => c.predictMs));
      result.total = timingStats(first.fitMs + first.predictMs, warm.map((c) => c.fitMs + c.predictMs));
    }
    return result;
  }
}

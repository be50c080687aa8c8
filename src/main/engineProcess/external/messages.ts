/**
 * The messages an external engine writes on its events descriptor (docs/external-engines.md,
 * protocol 1), and the check each line passes: the engine is someone else's program, so every
 * field is read as untrusted and a line that breaks the contract says which line and why.
 */

export const PROTOCOL_VERSION = 1;
/** a line longer than this is refused (the engine's arrays go to files, never into messages) */
export const MAX_LINE_BYTES = 1024 * 1024;
export const MAX_LINES = 200_000;
const MAX_NAME_CHARS = 200;
const MAX_MESSAGE_CHARS = 4000;
const MAX_ARGS = 32;

export type FlatArgs = Record<string, string | number | boolean>;

export interface HelloMessage {
  type: 'hello';
  engine: string;
  version: string;
  tNs: number;
  device: string;
  dtype: string;
  info: FlatArgs;
}
export interface SpanMessage { type: 'span'; name: string; startNs: number; endNs: number; args: FlatArgs }
export interface CounterMessage { type: 'counter'; name: string; tNs: number; value: number }
export type CallPhase = 'cold' | 'warmup' | 'warm';
export interface CallMessage { type: 'call'; phase: CallPhase; fitMs: number; predictMs: number }
export interface ResultMessage { type: 'result'; name: string; file: string }
export interface LogMessage { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
export interface DoneMessage { type: 'done' }
/** the framework's own trace of one call (JAX's profiler): Chrome trace JSON, its first event at startNs */
export interface TraceMessage { type: 'trace'; file: string; startNs: number }

export type ExternalMessage = HelloMessage | SpanMessage | CounterMessage | CallMessage | ResultMessage | LogMessage | DoneMessage | TraceMessage;

class LineError extends Error {}

function obj(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new LineError(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function text(r: Record<string, unknown>, key: string, max = MAX_NAME_CHARS, fallback?: string): string {
  const v = r[key] ?? fallback;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw new LineError(`'${key}' must be a string of 1 to ${max} characters`);
  return v;
}

function num(r: Record<string, unknown>, key: string, min = -Infinity): number {
  const v = r[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min) throw new LineError(`'${key}' must be a finite number${min > -Infinity ? ` ≥ ${min}` : ''}`);
  return v;
}

function flat(v: unknown, key: string): FlatArgs {
  if (v === undefined || v === null) return {};
  const r = obj(v, `'${key}'`);
  const entries = Object.entries(r);
  if (entries.length > MAX_ARGS) throw new LineError(`'${key}' holds ${entries.length} keys; at most ${MAX_ARGS}`);
  const out: FlatArgs = {};
  for (const [k, x] of entries) {
    const ok = (typeof x === 'string' && x.length <= MAX_MESSAGE_CHARS) || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));
    if (!ok || k.length > MAX_NAME_CHARS) throw new LineError(`'${key}.${k.slice(0, 40)}' must be a short string, a finite number or a boolean`);
    out[k] = x as string | number | boolean;
  }
  return out;
}

/** a file the engine wrote: a plain name inside the engine's folder, never a path out of it */
function fileName(r: Record<string, unknown>, endings: readonly string[]): string {
  const f = text(r, 'file');
  if (f.includes('/') || f.includes('\\') || f.startsWith('.') || !endings.some((e) => f.endsWith(e))) {
    throw new LineError(`'file' must name a ${endings.join(' or ')} file in the engine's folder, without a path: got ${JSON.stringify(f)}`);
  }
  return f;
}

function parseHello(r: Record<string, unknown>): HelloMessage {
  if (r.protocol !== PROTOCOL_VERSION) throw new LineError(`'protocol' must be ${PROTOCOL_VERSION}, got ${JSON.stringify(r.protocol)}`);
  return {
    type: 'hello', engine: text(r, 'engine'), version: text(r, 'version', MAX_NAME_CHARS, '?'), tNs: num(r, 't_ns', 0),
    device: text(r, 'device', MAX_NAME_CHARS, '?'), dtype: text(r, 'dtype', MAX_NAME_CHARS, '?'), info: flat(r.info, 'info'),
  };
}

function parseSpan(r: Record<string, unknown>): SpanMessage {
  const startNs = num(r, 'start_ns', 0);
  const endNs = num(r, 'end_ns', 0);
  if (endNs < startNs) throw new LineError(`span '${String(r.name).slice(0, 40)}' ends (${endNs}) before it starts (${startNs})`);
  return { type: 'span', name: text(r, 'name'), startNs, endNs, args: flat(r.args, 'args') };
}

function parseCall(r: Record<string, unknown>): CallMessage {
  const phase = r.phase;
  if (phase !== 'cold' && phase !== 'warmup' && phase !== 'warm') throw new LineError(`'phase' must be cold, warmup or warm, got ${JSON.stringify(phase)}`);
  return { type: 'call', phase, fitMs: num(r, 'fit_ms', 0), predictMs: num(r, 'predict_ms', 0) };
}

function parseLog(r: Record<string, unknown>): LogMessage {
  const level = r.level ?? 'info';
  if (level !== 'info' && level !== 'warn' && level !== 'error') throw new LineError(`'level' must be info, warn or error, got ${JSON.stringify(level)}`);
  const message = typeof r.message === 'string' ? r.message.slice(0, MAX_MESSAGE_CHARS) : '';
  if (message === '') throw new LineError("'message' must be a non-empty string");
  return { type: 'log', level, message };
}

function parseObject(r: Record<string, unknown>): ExternalMessage {
  switch (r.type) {
    case 'hello': return parseHello(r);
    case 'span': return parseSpan(r);
    case 'counter': return { type: 'counter', name: text(r, 'name'), tNs: num(r, 't_ns', 0), value: num(r, 'value') };
    case 'call': return parseCall(r);
    case 'result': return { type: 'result', name: text(r, 'name'), file: fileName(r, ['.npy']) };
    case 'trace': return { type: 'trace', file: fileName(r, ['.json', '.json.gz']), startNs: num(r, 'start_ns', 0) };
    case 'log': return parseLog(r);
    case 'done': return { type: 'done' };
    default: throw new LineError(`unknown message type ${JSON.stringify(r.type)?.slice(0, 40)}`);
  }
}

/** One line of the events descriptor as a message; throws an Error naming the line and what is wrong. */
export function parseEngineLine(line: string, lineNo: number): ExternalMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new Error(`events line ${lineNo} is not JSON: ${JSON.stringify(line.slice(0, 80))}`);
  }
  try {
    return parseObject(obj(raw, 'a message'));
  } catch (e) {
    if (e instanceof LineError) throw new Error(`events line ${lineNo}: ${e.message}`);
    throw e;
  }
}

/**
 * Splits the events stream into lines, refusing a line over MAX_LINE_BYTES or more than MAX_LINES
 * lines: an engine that writes garbage costs a bounded amount of memory before it is stopped.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lines = 0;

  constructor(private readonly onLine: (line: string, lineNo: number) => void) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      this.take(chunk.subarray(from, nl));
      const line = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      if (++this.lines > MAX_LINES) throw new Error(`the engine wrote more than ${MAX_LINES} event lines`);
      if (line.trim() !== '') this.onLine(line, this.lines);
      from = nl + 1;
    }
    this.take(chunk.subarray(from));
  }

  /** the stream ended: a last line without its newline still counts */
  end(): void {
    if (this.pendingBytes === 0) return;
    this.push(Buffer.from('\n'));
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > MAX_LINE_BYTES) throw new Error(`events line ${this.lines + 1} is longer than ${MAX_LINE_BYTES} bytes`);
    this.pending.push(part);
  }
}

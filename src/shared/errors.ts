/**
 * Errors that cross process boundaries. Every failure a person can act on is an AppError with a
 * code from one union; it serializes to plain JSON (IPC, WebSocket, child-process messages) and is
 * rebuilt on the other side. A broken invariant is a BugError instead.
 */

/** Codes of the data-format validation catalogue (shared/spec/data-format.md §6c) that are errors. */
export type DataErrorCode =
  | 'E001' | 'E010' | 'E011' | 'E012' | 'E013'
  | 'E020' | 'E021' | 'E022' | 'E023' | 'E025' | 'E026' | 'E027'
  | 'E030' | 'E032' | 'E043' | 'E050' | 'E060' | 'E061' | 'E064' | 'E065'
  /** the file itself cannot be read: not a zip, truncated, corrupt member, unreadable .npy header */
  | 'E090';

export type ErrorCode =
  | DataErrorCode
  | 'BAD_ARGUMENT'
  | 'BACKEND_UNAVAILABLE'
  | 'NOT_FOUND'
  /** a write would replace a file the caller did not say may be replaced */
  | 'EXISTS'
  | 'IO'
  | 'UNAUTHORIZED'
  | 'RUN_FAILED'
  /** the GPU device stopped (a driver reset, a lost or destroyed device) while the engine used it */
  | 'DEVICE_LOST'
  | 'CANCELLED'
  | 'INTERNAL'
  | 'BUG';

/** Where in the input a problem is. All fields optional; a message must still read on its own. */
export interface ErrorLocation {
  file?: string;
  key?: string;
  electrode?: string | number;
  index?: number;
  value?: number | string;
  /** what the user can do about it */
  hint?: string;
}

export interface SerializedError {
  name: 'AppError' | 'BugError';
  code: ErrorCode;
  message: string;
  location?: ErrorLocation;
  stack?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly location: ErrorLocation | undefined;

  constructor(code: ErrorCode, message: string, location?: ErrorLocation) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.location = location;
  }

  toJSON(): SerializedError {
    return { name: 'AppError', code: this.code, message: this.message, location: this.location };
  }
}

/** A broken invariant inside the program: never the user's fault, always worth a report. */
export class BugError extends AppError {
  constructor(message: string) {
    super('BUG', message);
    this.name = 'BugError';
  }

  override toJSON(): SerializedError {
    return { name: 'BugError', code: 'BUG', message: this.message, stack: this.stack };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Turns anything thrown into the wire form; unknown errors become INTERNAL with their message. */
export function serializeError(e: unknown): SerializedError {
  if (e instanceof AppError) return e.toJSON();
  if (e instanceof Error) return { name: 'AppError', code: 'INTERNAL', message: e.message, stack: e.stack };
  return { name: 'AppError', code: 'INTERNAL', message: String(e) };
}

/**
 * The wire form a page gets: the coded error without a stack. A stack describes the service's
 * files and code, which is nothing a page can act on; the transport logs it instead.
 */
export function pageError(e: unknown): SerializedError {
  const { stack: _stack, ...wire } = serializeError(e);
  return wire;
}

/** Whether an error is the program's fault (unknown, INTERNAL or BUG): the transport logs its stack. */
export function isUnexpected(e: unknown): boolean {
  return !(e instanceof AppError) || e.code === 'INTERNAL' || e.code === 'BUG';
}

const KNOWN_CODES = new Set<string>([
  'E001', 'E010', 'E011', 'E012', 'E013', 'E020', 'E021', 'E022', 'E023', 'E025', 'E026', 'E027',
  'E030', 'E032', 'E043', 'E050', 'E060', 'E061', 'E064', 'E065', 'E090',
  'BAD_ARGUMENT', 'BACKEND_UNAVAILABLE', 'NOT_FOUND', 'EXISTS', 'IO', 'UNAUTHORIZED', 'RUN_FAILED', 'DEVICE_LOST', 'CANCELLED',
  'INTERNAL', 'BUG',
]);

/** Rebuilds an error from its wire form; malformed input becomes an INTERNAL error, never a throw. */
export function deserializeError(raw: unknown): AppError {
  if (typeof raw !== 'object' || raw === null) return new AppError('INTERNAL', `malformed error: ${String(raw)}`);
  const r = raw as Record<string, unknown>;
  const code = typeof r.code === 'string' && KNOWN_CODES.has(r.code) ? (r.code as ErrorCode) : 'INTERNAL';
  const message = typeof r.message === 'string' ? r.message : 'unknown error';
  if (r.name === 'BugError') return new BugError(message);
  const loc = typeof r.location === 'object' && r.location !== null ? (r.location as ErrorLocation) : undefined;
  return new AppError(code, message, loc);
}

/** Exit code of the CLI for an error: 2 for the user's input or arguments, 1 for everything else. */
export function exitCodeFor(e: AppError): 1 | 2 {
  if (/^E\d{3}$/.test(e.code) || e.code === 'BAD_ARGUMENT' || e.code === 'NOT_FOUND' || e.code === 'EXISTS') return 2;
  return 1;
}

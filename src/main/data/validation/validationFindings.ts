/**
 * Collects validation findings (data-format.md §6c) for one file: every message names the file, and
 * findings carry the key, electrode and first offending index so the UI and the CLI can point at them.
 */
import type { ValidationFinding } from '../../../shared/api';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { formatShare } from '../../../shared/format';

export interface FindingWhere {
  key?: string;
  electrode?: string;
  index?: number;
  fix?: string;
}

export class ValidationFindings {
  readonly items: ValidationFinding[] = [];

  constructor(readonly file: string) {}

  private add(code: string, severity: ValidationFinding['severity'], message: string, where: FindingWhere): void {
    const finding: ValidationFinding = { code, severity, message: `${this.file}: ${message}` };
    if (where.key !== undefined) finding.key = where.key;
    if (where.electrode !== undefined) finding.electrode = where.electrode;
    if (where.index !== undefined) finding.index = where.index;
    if (where.fix !== undefined) finding.fix = where.fix;
    this.items.push(finding);
  }

  error(code: ErrorCode, message: string, where: FindingWhere = {}): void {
    this.add(code, 'error', message, where);
  }

  warn(code: string, message: string, where: FindingWhere = {}): void {
    this.add(code, 'warning', message, where);
  }

  info(code: string, message: string, where: FindingWhere = {}): void {
    this.add(code, 'info', message, where);
  }

  /** records an AppError thrown by a reader as a finding of the same code */
  fromError(e: AppError, where: FindingWhere): void {
    const message = e.message.startsWith(`${this.file}: `) ? e.message.slice(this.file.length + 2) : e.message;
    this.add(e.code, 'error', message, { ...where, fix: where.fix ?? e.location?.hint });
  }

  errorCount(): number {
    return this.items.filter((f) => f.severity === 'error').length;
  }

  /** The error a load fails with: the first error finding, naming how many more there are. */
  toAppError(): AppError | null {
    const errors = this.items.filter((f) => f.severity === 'error');
    const first = errors[0];
    if (!first) return null;
    const more = errors.length - 1;
    const message = more > 0 ? `${first.message} (and ${more} more problem${more === 1 ? '' : 's'}: ${otherProblems(errors.slice(1), `${this.file}: `)})` : first.message;
    return new AppError(first.code as ErrorCode, message, {
      file: this.file,
      key: first.key,
      electrode: first.electrode,
      index: first.index,
      hint: first.fix,
    });
  }
}

/** the errors after the first, listed so that one load shows them all (the first few, each cut short) */
const LISTED_PROBLEMS = 5;
const PROBLEM_CHARS = 160;

/** `prefix`: the file's name, said once at the start of the whole message */
function otherProblems(rest: readonly ValidationFinding[], prefix: string): string {
  const shown = rest.slice(0, LISTED_PROBLEMS).map((f) => {
    const message = f.message.startsWith(prefix) ? f.message.slice(prefix.length) : f.message;
    const text = message.length > PROBLEM_CHARS ? `${message.slice(0, PROBLEM_CHARS - 1)}…` : message;
    return `${f.code}${f.key !== undefined ? ` at ${f.key}` : ''}: ${text}`;
  });
  const unlisted = rest.length - shown.length;
  return shown.join('; ') + (unlisted > 0 ? `; ${unlisted} more not listed` : '');
}

/** 35000 → "35,000" */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A value as people read it in a message: NaN/Inf spelled out, otherwise up to 10 significant digits
 * (enough to tell apart two epoch-second spike times that differ by a millisecond).
 */
export function num(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Inf' : '-Inf';
  if (v !== 0 && (Math.abs(v) >= 1e12 || Math.abs(v) < 1e-4)) return v.toExponential(4);
  return String(Number(v.toPrecision(10)));
}

/** part of whole as a percentage, printed like every other share */
export function pct(part: number, whole: number): string {
  return formatShare(whole > 0 ? part / whole : 0);
}

export function shapeText(shape: readonly number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

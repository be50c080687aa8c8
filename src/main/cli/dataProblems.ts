/**
 * A data file's checks as the command line prints them: every finding (code, key, electrode,
 * words, what to do), grouped by what it means for a run; and the pointer a refused load carries,
 * since its one line lists only the first few problems and none of the fixes.
 */
import type { DataInspection, ValidationFinding } from '../../shared/api';
import type { DataSource } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import { AppError } from '../../shared/errors';

const GROUPS: { severity: ValidationFinding['severity']; title: string }[] = [
  { severity: 'error', title: 'problems: run and decode refuse the file for any one of these' },
  { severity: 'warning', title: 'warnings: the file is read, but check these' },
  { severity: 'info', title: 'notes' },
];

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** a path as one shell word, so the printed command can be pasted */
export function shellWord(path: string): string {
  return /^[\w./:@+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** the finding's words without the file's name in front: the heading names the file once */
function words(f: ValidationFinding, file: string): string {
  return f.message.startsWith(`${file}: `) ? f.message.slice(file.length + 2) : f.message;
}

/** a group's findings under a header row; a finding's fix on the line below it */
function findingLines(findings: readonly ValidationFinding[], file: string): string[] {
  const keyWidth = Math.max('key'.length, ...findings.map((f) => (f.key ?? '-').length));
  const electrodeWidth = Math.max('electrode'.length, ...findings.map((f) => (f.electrode ?? '-').length));
  const row = (code: string, key: string, electrode: string, text: string): string =>
    `  ${code.padEnd(4)}  ${key.padEnd(keyWidth)}  ${electrode.padEnd(electrodeWidth)}  ${text}`;
  return [row('code', 'key', 'electrode', 'what is wrong'), ...findings.flatMap((f) => {
    const line = row(f.code, f.key ?? '-', f.electrode ?? '-', words(f, file));
    return f.fix ? [line, row('', '', '', `what to do: ${f.fix}`)] : [line];
  })];
}

/** what a run would read from the file, in one line */
export function summaryLine(s: DatasetSummary): string {
  const span = `${Number(s.timeSpan[0].toPrecision(6))}–${Number(s.timeSpan[1].toPrecision(6))} s`;
  return [
    plural(s.nElectrodes, 'electrode'), `${plural(s.nEncodingSpikes, 'encoding spike')} and ${s.nDecodingSpikes.toLocaleString('en-US')} decoding`,
    `${plural(s.nPositionSamples, 'position sample')} (${s.positionDims}-D)`, `${plural(s.nTime, 'decoding row')} over ${span}`, plural(s.nBins, 'place bin'),
  ].join(' · ');
}

/** how many problems a refused file has, in the words both the heading and the refusal use */
export function problemCount(inspection: DataInspection): string {
  return plural(inspection.findings.filter((f) => f.severity === 'error').length, 'problem');
}

/** Every finding of an inspection, grouped; `file`: the name the findings' messages start with. */
export function inspectionText(inspection: DataInspection, file: string): string {
  const warnings = inspection.findings.filter((f) => f.severity === 'warning').length;
  const head = !isValid(inspection) || !inspection.summary
    ? `${file}: refused, ${problemCount(inspection)}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}`
    : `${file}: valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}: ${summaryLine(inspection.summary)}`;
  const lines = [head];
  for (const { severity, title } of GROUPS) {
    const group = inspection.findings.filter((f) => f.severity === severity);
    if (group.length > 0) lines.push('', `${title}:`, ...findingLines(group, file));
  }
  return `${lines.join('\n')}\n`;
}

/** whether a run would read the inspected data */
export function isValid(inspection: DataInspection): boolean {
  return inspection.summary !== null && !inspection.findings.some((f) => f.severity === 'error');
}

/** The inspection as JSON: everything but the preview, which is for plotting. */
export function inspectionJson(inspection: DataInspection, extra: Record<string, unknown> = {}): string {
  const { preview: _preview, ...rest } = inspection;
  return `${JSON.stringify({ ...extra, ...rest, valid: isValid(inspection) }, null, 2)}\n`;
}

/**
 * A refused load's error with the command that lists every problem and what to do about each:
 * its own message names the first problem and lists only the next few, without their fixes.
 */
export function withEveryProblemPointer(error: AppError, data: DataSource): AppError {
  if (data.kind !== 'file' || !/^E\d{3}$/.test(error.code)) return error;
  // on the same line: a refusal is one line in the command's own error form
  const message = `${error.message} Every problem, with what to do about each: kde-profiler validate ${shellWord(data.path)}`;
  return new AppError(error.code, message, error.location);
}

/**
 * report.json: written and read back against its JSON Schema (resources/report.schema.json),
 * so a report another version wrote, or a hand-edited one, is rejected with the field named.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { Report } from '../../shared/report';
import { AppError } from '../../shared/errors';
import { reportUnderMethodNames } from '../../shared/posteriorMethodNames';
import reportSchema from '../../../resources/report.schema.json';

export interface ReportValidation {
  ok: boolean;
  /** "/strategies/0/encode: must have required property 'medianMs'" */
  errors: string[];
}

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  // union types (number | null) are how JSON writes NaN; the schema uses them on purpose
  validator ??= new Ajv({ allErrors: true, allowUnionTypes: true }).compile(reportSchema);
  return validator;
}

/**
 * Compiles the report's validator now rather than when the first run ends: compiling the schema
 * holds the main thread for a few hundred ms, and at a run's end pages may be watching it live.
 */
export function warmReportValidator(): void {
  compiled();
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(root)' : e.instancePath;
  const extra = e.keyword === 'additionalProperties'
    ? ` '${String((e.params as { additionalProperty?: unknown }).additionalProperty)}'`
    : e.keyword === 'enum' ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` : '';
  return `${where}: ${e.message ?? e.keyword}${extra}`;
}

/**
 * Checks a report as it would be written: the value goes through JSON first, so NaN becomes null
 * and undefined fields disappear exactly as in the file.
 */
export function validateReport(value: unknown): ReportValidation {
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(value) ?? 'null');
  } catch (e) {
    return { ok: false, errors: [`(root): not serializable as JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const validate = compiled();
  if (validate(json)) return { ok: true, errors: [] };
  return { ok: false, errors: (validate.errors ?? []).map(describe) };
}

/** The text of report.json. */
export function serializeReport(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Parses and validates report.json text (one written before the posterior's method had its name under today's names); `source` names the file in errors. */
export function parseReport(text: string, source: string): Report {
  let value: unknown;
  try {
    value = reportUnderMethodNames(JSON.parse(text));
  } catch (e) {
    throw new AppError('BAD_ARGUMENT', `${source} is not valid JSON (${e instanceof Error ? e.message : String(e)}): re-export the report from its run.`, { file: source });
  }
  const result = validateReport(value);
  if (!result.ok) {
    const shown = result.errors.slice(0, 5).join('; ');
    throw new AppError('BAD_ARGUMENT', `${source} does not match the report schema (version 1): ${shown}${result.errors.length > 5 ? ` and ${result.errors.length - 5} more` : ''}. It may come from another version of kde-profiler.`, { file: source });
  }
  return value as Report;
}

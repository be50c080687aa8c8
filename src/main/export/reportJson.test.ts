import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exampleReport, exampleReportWithEngines } from './exampleReport.testdata';
import { parseReport, serializeReport, validateReport } from './reportJson';

describe('report schema', () => {
  it('accepts a valid report, and its serialized form parses back equal', () => {
    const report = exampleReport();
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    expect(parseReport(serializeReport(report), 'report.json')).toEqual(report);
  });

  it('reads a report written before the posterior\'s methods had their name (posterior.strategies), under today\'s', () => {
    const report = exampleReport();
    const old = { ...report, config: { ...report.config, posterior: { model: 'decoder', strategies: ['dense', 'structured'] } } };
    expect(validateReport(old).ok).toBe(false);
    expect(parseReport(JSON.stringify(old), 'report.json').config.posterior).toEqual({ model: 'decoder', methods: ['dense', 'structured'] });
  });

  it("accepts the GPU's counts on a stage, and refuses a count that is not one", () => {
    const report = exampleReport();
    report.strategies[0]!.stages[0]!.gpu = { dispatches: 120, pipelines: 0, readBytes: 4096 };
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    expect(parseReport(serializeReport(report), 'report.json')).toEqual(report);
    report.strategies[0]!.stages[0]!.gpu = { dispatches: -1, pipelines: 0, readBytes: 0 };
    expect(validateReport(report).ok).toBe(false);
  });

  it('accepts external engines\' rows, one of them not available on the machine', () => {
    const report = exampleReportWithEngines();
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    expect(parseReport(serializeReport(report), 'report.json')).toEqual(report);
  });

  it('accepts a minimal failed run and NaN measurements (written as null)', () => {
    const report = exampleReport();
    report.strategies = [];
    delete report.agreementMatrix;
    delete report.local;
    delete report.recommendation;
    report.status = 'failed';
    report.error = { name: 'AppError', code: 'RUN_FAILED', message: 'engine process ran out of memory' };
    expect(validateReport(report).errors).toEqual([]);
    const nan = exampleReport();
    nan.strategies[0]!.health!.electrodes[0]!.floorShare = Number.NaN;
    nan.strategies[1]!.agreementWithReference!.maxAbsDiff = Number.POSITIVE_INFINITY;
    expect(validateReport(nan).ok).toBe(true);
  });

  it.each([
    ['schemaVersion', (r: Record<string, unknown>) => delete r.schemaVersion, "(root): must have required property 'schemaVersion'"],
    ['findings', (r: Record<string, unknown>) => delete r.findings, "(root): must have required property 'findings'"],
    ['dataset.nBins', (r: Record<string, unknown>) => delete (r.dataset as Record<string, unknown>).nBins, "/dataset: must have required property 'nBins'"],
    ['encode.medianMs', (r: Record<string, unknown>) => delete ((r.strategies as Record<string, Record<string, unknown>>[])[0]!.encode as Record<string, unknown>).medianMs,
      "/strategies/0/encode: must have required property 'medianMs'"],
    ['finding severity', (r: Record<string, unknown>) => ((r.findings as Record<string, unknown>[])[0]!.severity = 'fatal'), '/findings/0/severity: must be equal to one of the allowed values (info, warning, error)'],
    ['schemaVersion 2', (r: Record<string, unknown>) => (r.schemaVersion = 2), '/schemaVersion: must be equal to constant'],
    ['unknown key', (r: Record<string, unknown>) => (r.extra = true), "(root): must NOT have additional properties 'extra'"],
    ['fractional count', (r: Record<string, unknown>) => ((r.environment as Record<string, unknown>).cpus = 1.5), '/environment/cpus: must be integer'],
  ])('rejects a report with a broken %s', (_what, breakIt, message) => {
    const report = exampleReport() as unknown as Record<string, unknown>;
    breakIt(report);
    const result = validateReport(report);
    expect(result.ok).toBe(false);
    expect(result.errors).toContain(message);
  });

  it('names the file and the field when parsing a bad report', () => {
    const report = exampleReport() as unknown as Record<string, unknown>;
    delete report.backend;
    expect(() => parseReport(JSON.stringify(report), 'runs/x/report.json')).toThrow(/runs\/x\/report\.json.*'backend'/);
    expect(() => parseReport('{', 'runs/x/report.json')).toThrow(/runs\/x\/report\.json is not valid JSON/);
  });

  it('pins schemaVersion to 1 in the shipped schema', () => {
    const path = fileURLToPath(new URL('../../../resources/report.schema.json', import.meta.url));
    const schema = JSON.parse(readFileSync(path, 'utf8')) as { properties: { schemaVersion: unknown } };
    expect(schema.properties.schemaVersion).toEqual({ const: 1 });
  });
});

/**
 * report.csv: one row per strategy × phase (encode, decode, total; `local` when the local
 * likelihood ran), stable columns with a header row, numbers in plain units (ms, bytes) without
 * unit text so a spreadsheet or pandas reads them as they are, fractional ones rounded to
 * CSV_SIGNIFICANT_DIGITS (timer noise is far above the digits a float prints). Each row carries
 * its median's 95 % interval; the total row the ratio to the reference with its interval and
 * verdict. A decode's posterior adds a row each for its filter and its smoother (strategy
 * `posterior`, resolved: the model and the posterior method), each one call. A strategy with a
 * roofline adds a row per modelled stage and one for all of them (phase `roofline`). An external
 * engine's rows (docs/external-engines.md) carry what it said it is and its process tree's peak RSS.
 */
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import type { RooflineEntry } from '../../shared/roofline';
import { csvText } from '../../shared/untrustedText';
import { baselineOf, speedupOf } from './reportTimings';

export const CSV_COLUMNS = [
  'runId', 'dataset', 'backend', 'device', 'strategy', 'resolved', 'status', 'phase',
  'firstMs', 'medianMs', 'meanMs', 'stdMs', 'minMs', 'maxMs', 'n', 'speedupVsBaseline',
  'estimatedPeakBytes', 'measuredPeakTensorBytes', 'peakRssBytes', 'leaked',
  'maxAbsDiffVsReference', 'allcloseVsReference', 'argmaxAgreementVsReference',
  'maxAbsDiffVsExpected', 'allcloseVsExpected',
  // appended, so the columns above keep their places
  'medianCi95LowMs', 'medianCi95HighMs', 'outlierCount', 'stoppedBy',
  'ratioVsReference', 'ratioVsReferenceCi95Low', 'ratioVsReferenceCi95High', 'verdictVsReference',
  'rooflineStage', 'rooflineCalls', 'rooflineTimeMs', 'flops', 'bytes', 'arithmeticIntensity', 'achievedGflops',
  'peakGflops', 'fractionOfPeak', 'ceiling',
  'externalEngine', 'externalVersion', 'externalDevice', 'externalDtype', 'externalPeakRssBytes',
] as const;

/** enough to tell apart any two figures a repeat can tell apart; whole numbers (bytes, counts) stay whole */
export const CSV_SIGNIFICANT_DIGITS = 4;

type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string | number | boolean | undefined | null>>;

function csvNumber(x: number): string {
  return String(Number.isInteger(x) ? x : Number(x.toPrecision(CSV_SIGNIFICANT_DIGITS)));
}

function csvValue(v: string | number | boolean | undefined | null): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? csvNumber(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  const s = typeof v === 'string' ? csvText(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function timingCells(t: TimingStats | undefined): Row {
  if (!t) return {};
  return {
    firstMs: t.firstMs, medianMs: t.medianMs, meanMs: t.meanMs, stdMs: t.stdMs, minMs: t.minMs, maxMs: t.maxMs, n: t.n,
    medianCi95LowMs: t.ci95?.[0], medianCi95HighMs: t.ci95?.[1], outlierCount: t.outliers?.length, stoppedBy: t.stoppedBy,
  };
}

/** the total against the reference: ratio, its interval and the verdict (on the total row only) */
function vsReferenceCells(s: StrategyResult): Row {
  const c = s.vsReference;
  if (!c) return {};
  return { ratioVsReference: c.ratio, ratioVsReferenceCi95Low: c.ratioCi95[0], ratioVsReferenceCi95High: c.ratioCi95[1], verdictVsReference: c.verdict };
}

function strategyCells(s: StrategyResult): Row {
  return {
    strategy: s.strategy,
    resolved: [...new Set(s.resolved)].join(' '),
    status: s.status,
    estimatedPeakBytes: s.memory?.estimatedPeakBytes,
    measuredPeakTensorBytes: s.memory?.measuredPeakTensorBytes,
    peakRssBytes: s.memory?.peakRssBytes,
    leaked: s.leak?.leaked,
    maxAbsDiffVsReference: s.agreementWithReference?.maxAbsDiff,
    allcloseVsReference: s.agreementWithReference?.allclose,
    argmaxAgreementVsReference: s.agreementWithReference?.argmaxAgreement,
    maxAbsDiffVsExpected: s.agreementWithExpected?.maxAbsDiff,
    allcloseVsExpected: s.agreementWithExpected?.allclose,
    // an external engine's own RSS is its process tree's, not the engine process's: a column of its own
    externalEngine: s.external?.engine, externalVersion: s.external?.version, externalDevice: s.external?.device,
    externalDtype: s.external?.dtype, externalPeakRssBytes: s.external?.peakRssBytes,
  };
}

function rooflineCells(e: RooflineEntry): Row {
  return {
    rooflineTimeMs: e.timeMs, flops: e.flops, bytes: e.bytes, arithmeticIntensity: e.arithmeticIntensity,
    achievedGflops: e.achievedGflops, peakGflops: e.peakGflops, fractionOfPeak: e.fractionOfPeak, ceiling: e.ceiling,
  };
}

/** each modelled stage's work against its time, then the strategy's stages together (stage `all`) */
function rooflineRows(common: Row, s: StrategyResult): Row[] {
  const r = s.roofline;
  if (!r) return [];
  const head: Row = { ...common, strategy: s.strategy, resolved: [...new Set(s.resolved)].join(' '), status: s.status, phase: 'roofline' };
  return [
    ...r.stages.map((st) => ({ ...head, rooflineStage: st.stage, rooflineCalls: st.calls, ...rooflineCells(st) })),
    { ...head, rooflineStage: 'all', ...rooflineCells(r) },
  ];
}

export function renderReportCsv(report: Report): string {
  const common: Row = { runId: report.runId, dataset: report.dataset.name, backend: report.backend.name, device: report.backend.device };
  const baseline = baselineOf(report);
  const rows: Row[] = [];
  for (const s of report.strategies) {
    for (const phase of ['encode', 'decode', 'total'] as const) {
      rows.push({
        ...common, ...strategyCells(s), phase, ...timingCells(s[phase]),
        speedupVsBaseline: phase === 'total' ? speedupOf(s, baseline) : undefined,
        ...(phase === 'total' ? vsReferenceCells(s) : {}),
      });
    }
  }
  if (report.local) {
    rows.push({
      ...common, strategy: 'local', status: 'ok', phase: 'local', ...timingCells(report.local.timing),
      maxAbsDiffVsExpected: report.local.agreementWithExpected?.maxAbsDiff,
      allcloseVsExpected: report.local.agreementWithExpected?.allclose,
    });
  }
  for (const s of report.strategies) rows.push(...rooflineRows(common, s));
  const p = report.posterior;
  if (p) {
    // a profiling run timed each posterior method: a pair of rows each, so a spreadsheet compares them like strategies
    for (const t of p.methods ?? [p]) {
      for (const [phase, ms] of [['filter', t.filterMs], ['smooth', t.smoothMs]] as const) {
        rows.push({ ...common, strategy: 'posterior', resolved: `${p.model} ${t.method}`, status: 'ok', phase, firstMs: ms, medianMs: ms, n: 1 });
      }
    }
  }
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => csvValue(r[c])).join(','))];
  return `${lines.join('\n')}\n`;
}

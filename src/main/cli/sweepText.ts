/**
 * What `kde-profiler sweep` prints: a table of the value against each strategy's total median with
 * its interval (the fastest named, each value's run beside it), the log-log slopes per strategy
 * and stage, and the crossovers or their absence.
 */
import { formatSweepValue, slopeExponentText, sweepPointText, totalSeries } from '../../shared/sweep';
import { SWEEP_VARIABLE_TEXT, type SweepResult, type SweepSeries } from '../../shared/sweep';
import { table } from './table';

/** stages shown in the slope table beside total, encode and decode (the engine has six) */
const SLOPE_STAGES = 6;

/** the fastest total, marked where the runner-up's interval overlaps its own */
function fastestCell(s: SweepResult, i: number): string {
  const f = s.fastest[i];
  if (!f) return '-';
  return s.clearlyFastest[i] === f ? f : `${f} (within noise)`;
}

function valueTable(s: SweepResult): string {
  const rows = [[SWEEP_VARIABLE_TEXT[s.vary], ...s.strategies.map((x) => `${x.strategy} (total, 95 % CI)`), 'fastest', 'run']];
  s.values.forEach((value, i) => {
    const run = s.runs[i];
    const failed = run && run.status !== 'completed' && run.status !== 'pending' ? run.status : null;
    rows.push([
      formatSweepValue(value),
      ...s.strategies.map((x) => (failed && !totalSeries(x).points[i] ? failed : sweepPointText(totalSeries(x).points[i]))),
      fastestCell(s, i),
      run?.runId ?? '-',
    ]);
  });
  return table(rows);
}

function slopeCell(series: SweepSeries | undefined): string {
  return slopeExponentText(series?.slope);
}

function slopeTable(s: SweepResult): string {
  const metrics = s.metrics.slice(0, 3 + SLOPE_STAGES);
  const rows = [['strategy', ...metrics.map((m) => (m === 'total' ? 'total (r²)' : m))]];
  for (const x of s.strategies) {
    const cells = metrics.map((m) => {
      const series = x.series.find((y) => y.metric === m);
      if (m !== 'total' || !series?.slope || series.slope.fixedCostDominates) return slopeCell(series);
      const r2 = series.slope.r2;
      return `${slopeCell(series)}${r2 === null ? '' : ` (${r2.toFixed(2)})`}`;
    });
    rows.push([x.strategy, ...cells]);
  }
  return table(rows);
}

export function sweepText(s: SweepResult): string {
  const lines = [
    `sweep ${s.id}: ${s.vary} over ${s.values.map(formatSweepValue).join(', ')} on ${s.data}` +
      (s.status === 'completed' ? '' : ` (${s.status})`),
    valueTable(s),
    '',
    'log-log slopes (time ∝ value^slope; "fixed cost" where time does not grow with the value; stages are means per repeat, summed over the engine\'s workers):',
    slopeTable(s),
    '',
    `crossovers: ${s.conclusion}`,
    ...s.warnings.map((w) => `warning: ${w}`),
  ];
  return lines.join('\n') + '\n';
}

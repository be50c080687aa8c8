/**
 * The Roofline section of report.md: for each strategy, the work of each modelled stage (FLOPs and
 * bytes from the engine's formulas) against its measured time, and how close it came to the
 * calibrated ceiling that bounds it. report.json carries the same entries unrounded.
 */
import type { Report } from '../../shared/report';
import type { RooflineEntry } from '../../shared/roofline';
import { formatBytes, formatMs } from '../../shared/format';
import { fmtInt, fmtSi, fmtSig, mdTable } from './format';

/** what each ceiling name stands for, so a reader need not open report.json */
const CEILING_WORDS: Record<RooflineEntry['ceiling'], string> = {
  matmul: 'matmul peak',
  exp: 'exp throughput',
  log: 'log throughput',
  memory: 'memory bandwidth',
};

/**
 * A fraction of the ceiling as a percentage to two significant digits: the stages of a small run
 * sit far below theirs, where one fixed decimal would print 0.0 %.
 */
export function fractionText(fraction: number | null | undefined): string {
  const text = fmtSig(fraction === null || fraction === undefined ? fraction : fraction * 100, 2);
  return Number.isFinite(fraction) ? `${text} %` : text;
}

export function rooflineCells(e: RooflineEntry): string[] {
  return [
    fmtSi(e.flops), formatBytes(e.bytes), `${fmtSig(e.arithmeticIntensity)} FLOP/B`, formatMs(e.timeMs),
    `${fmtSig(e.achievedGflops)} GFLOP/s`, fractionText(e.fractionOfPeak), CEILING_WORDS[e.ceiling] ?? e.ceiling,
  ];
}

const HEADER = ['Stage', 'Calls', 'FLOPs', 'Bytes', 'Arithmetic intensity', 'Time', 'Achieved', 'Fraction of ceiling', 'Ceiling'];

function calibrationLine(report: Report): string {
  const c = report.environment.calibration;
  if (!c) return 'The backend was not calibrated: the ceilings are not known.';
  const bandwidth = c.bandwidthGBps === undefined ? '' : `, memory bandwidth ${fmtSig(c.bandwidthGBps)} GB/s`;
  return `Ceilings calibrated on ${c.backend}: matmul ${fmtSig(c.matmulGflops)} GFLOP/s, exp ${fmtSig(c.expGelemsPerS)} G/s, ` +
    `log ${fmtSig(c.logGelemsPerS)} G/s${bandwidth}.`;
}

export function rooflineSection(report: Report): string | undefined {
  const withRoofline = report.strategies.filter((s) => s.roofline);
  if (withRoofline.length === 0) return undefined;
  const out: string[] = [
    '## Roofline', '',
    'Work of each modelled stage over the timed calls (FLOPs and bytes from the formulas) against its measured time; ' +
      'the fraction is of the rate the calibrated ceilings allow for that mix of work. ' + calibrationLine(report),
  ];
  for (const s of withRoofline) {
    const r = s.roofline!;
    const rows = r.stages.map((st) => [st.stage, fmtInt(st.calls), ...rooflineCells(st)]);
    rows.push(['**all modelled stages**', '', ...rooflineCells(r)]);
    out.push('', `### ${s.strategy}`, '', mdTable(HEADER, rows));
  }
  return out.join('\n');
}

/**
 * The Decoding accuracy section of report.md: how far each strategy's likelihood argmax lands from
 * the true position, in the units the data name. A distance without its unit reads as anything
 * from millimetres to bins, so the unit is in every figure; data that name none say so.
 */
import type { DecodingAccuracy, Report } from '../../shared/report';
import { formatShare } from '../../shared/format';
import { fmtInt, fmtSig, mdTable } from './format';

/** the data's unit, or words saying the data carry none (the error is then in the position's own units) */
export function positionUnitText(a: DecodingAccuracy): string {
  return a.units && a.units.trim() !== '' ? a.units.trim() : 'position units';
}

function accuracyCells(strategy: string, a: DecodingAccuracy): string[] {
  const unit = positionUnitText(a);
  return [strategy, fmtInt(a.rows), `${fmtSig(a.medianAbsError)} ${unit}`, `${formatShare(a.shareWithin10)} within 10 ${unit}`];
}

export function accuracySection(report: Report): string | undefined {
  const measured = report.strategies.filter((s) => s.accuracy);
  if (measured.length === 0) return undefined;
  const unnamed = measured.some((s) => !s.accuracy!.units || s.accuracy!.units.trim() === '');
  return [
    '## Decoding accuracy', '',
    'The likelihood\'s argmax bin against the true position, over the rows where both are known.' +
      (unnamed ? ' The data name no unit for positions: distances are in the position\'s own units.' : ''),
    '',
    mdTable(['Strategy', 'Rows', 'Median error', 'Share of rows'], measured.map((s) => accuracyCells(s.strategy, s.accuracy!))),
  ].join('\n');
}

/**
 * The few lines `run` prints on stdout when it finishes: per strategy its warm medians and its
 * agreement with the reference, then the headline findings and the recommendation.
 */
import type { Report } from '../../shared/report';
import { formatMs } from '../../shared/format';
import { table } from './table';

export function runSummary(report: Report): string {
  const rows = [['strategy', 'status', 'encode', 'decode', 'total', 'first call', 'vs reference']];
  for (const s of report.strategies) {
    const agree = s.agreementWithReference;
    rows.push([
      s.strategy,
      s.status,
      s.encode ? formatMs(s.encode.medianMs) : '-',
      s.decode ? formatMs(s.decode.medianMs) : '-',
      s.total ? formatMs(s.total.medianMs) : '-',
      s.total ? formatMs(s.total.firstMs) : '-',
      agree ? `max |diff| ${agree.maxAbsDiff.toExponential(1)}${agree.allclose ? '' : ' (NOT allclose)'}` : s.error ? s.error.message.slice(0, 60) : '-',
    ]);
  }
  const lines = [
    `${report.dataset.name}: ${report.dataset.nElectrodes} electrodes, ${report.dataset.nTime} time rows × ${report.dataset.nBins} bins on ` +
      `${report.backend.name} (${report.backend.device})${(report.workers ?? 1) > 1 ? ` × ${report.workers} workers` : ''}`,
    table(rows),
  ];
  const notable = report.findings.filter((f) => f.severity !== 'info');
  for (const f of notable.slice(0, 5)) lines.push(`${f.severity}: ${f.message}`);
  if (report.recommendation) lines.push(`recommendation: ${report.recommendation.strategy}, block size ${report.recommendation.blockSize}`);
  return lines.join('\n') + '\n';
}

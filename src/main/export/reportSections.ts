/**
 * The memory, stage, kernel, numerical-health and findings sections of report.md.
 */
import type { Report, Severity, StageClock } from '../../shared/report';
import { markdownLine } from '../../shared/untrustedText';
import { formatBytes, formatMs, formatRatio, formatShare } from '../../shared/format';
import { fmtInt, mdTable, ratioWithCi, yesNo } from './format';

const TOP_N = 10;
/** an electrode with this share of its terms on the LOG_EPS floor is shown in the health table */
const FLOOR_SHARE_SHOWN = 0.5;

export function memorySection(report: Report): string {
  const out: string[] = ['## Memory', ''];
  const withMemory = report.strategies.filter((s) => s.memory);
  if (withMemory.length === 0) out.push('No memory measurements were recorded.');
  else {
    out.push(
      'Estimated peak: the strategy\'s formula (KDE spec §7) for the largest electrode in float32. ' +
        'Measured: peak bytes held in tensors while the strategy ran; RSS and heap of the engine process.',
      '',
      mdTable(
        ['Strategy', 'Estimated peak', 'Measured peak (tensors)', 'Measured / estimated', 'Peak RSS', 'Peak heap', 'GPU'],
        withMemory.map((s) => {
          const m = s.memory!;
          const ratio = m.estimatedPeakBytes > 0 ? m.measuredPeakTensorBytes / m.estimatedPeakBytes : undefined;
          return [
            s.strategy, formatBytes(m.estimatedPeakBytes), formatBytes(m.measuredPeakTensorBytes),
            ratio === undefined ? 'n/a' : formatRatio(ratio), formatBytes(m.peakRssBytes), formatBytes(m.peakHeapBytes),
            m.gpuBytes === undefined ? '—' : formatBytes(m.gpuBytes),
          ];
        }),
      ),
    );
  }
  const leaks = report.strategies.filter((s) => s.leak);
  if (leaks.length > 0) {
    out.push('', '### Tensor leak check', '', mdTable(
      ['Strategy', 'Tensors before', 'Tensors after', 'Left behind per repeat', 'Leak'],
      leaks.map((s) => {
        const l = s.leak!;
        return [s.strategy, fmtInt(l.tensorsBefore), fmtInt(l.tensorsAfter), l.perRepeat.join(', ') || '—', l.leaked ? '❌ leaked' : '✅ none'];
      }),
    ));
  }
  return out.join('\n');
}

const STAGE_CLOCK_LABEL: Record<StageClock, string> = { host: 'host', gpu: 'GPU', unsplit: 'not timed' };

export function stagesSection(report: Report): string {
  const out: string[] = ['## Stages', '', `Top ${TOP_N} stages per strategy by total time over the warm repeats; self time excludes direct child stages. ` +
    'Times are the host\'s wall time, except where the Clock column says GPU: the device\'s own time of the stage\'s work (timestamp queries), ' +
    'the host\'s time to queue it beside it; "not split": the device could not time its stages, only whole calls are timed.'];
  let any = false;
  for (const s of report.strategies) {
    if (s.stages.length === 0) continue;
    any = true;
    const top = s.stages.slice(0, TOP_N);
    // on a GPU: what the device was asked to do per stage, compilations in warm repeats among it
    const gpu = top.some((st) => st.gpu !== undefined);
    const gpuCells = (st: (typeof top)[number]): string[] =>
      st.gpu ? [fmtInt(st.gpu.dispatches), fmtInt(st.gpu.pipelines), formatBytes(st.gpu.readBytes)] : ['—', '—', '—'];
    // off the host's clock the table says which clock each time is on, and keeps the host's time to queue the work beside it
    const clocked = top.some((st) => (st.clock ?? 'host') !== 'host');
    const timeCells = (st: (typeof top)[number]): string[] => {
      const clock = st.clock ?? 'host';
      const times = clock === 'unsplit' ? ['not split', 'not split'] : [formatMs(st.totalMs), formatMs(st.selfMs)];
      return clocked ? [STAGE_CLOCK_LABEL[clock], ...times, st.hostMs === undefined ? '—' : formatMs(st.hostMs)] : times;
    };
    out.push('', `### ${s.strategy}`, '', mdTable(
      ['Stage', 'Calls', ...(clocked ? ['Clock'] : []), 'Total', 'Self', ...(clocked ? ['Host (queued)'] : []), ...(gpu ? ['GPU dispatches', 'Pipelines compiled', 'Read back'] : [])],
      top.map((st) => [st.name, fmtInt(st.calls), ...timeCells(st), ...(gpu ? gpuCells(st) : [])]),
    ));
  }
  if (!any) out.push('', 'No stage times were recorded (tracing was off, or no strategy finished).');
  return out.join('\n');
}

export function kernelsSection(report: Report): string {
  const out: string[] = ['## Kernels', '', `Top ${TOP_N} TensorFlow.js kernels per strategy (tf.profile of one warm call): the analog of the op counts read from JAX's HLO.`];
  let any = false;
  for (const s of report.strategies) {
    if (s.kernels.length === 0) continue;
    any = true;
    const total = s.kernels.reduce((sum, k) => sum + k.totalMs, 0);
    out.push('', `### ${s.strategy} (${fmtInt(s.kernels.reduce((n, k) => n + k.calls, 0))} kernel calls, ${formatMs(total)})`, '', mdTable(
      ['Kernel', 'Calls', 'Total', 'Share', 'Mean per call', 'Bytes added'],
      s.kernels.slice(0, TOP_N).map((k) => [
        k.name, fmtInt(k.calls), formatMs(k.totalMs), total > 0 ? formatShare(k.totalMs / total) : 'n/a',
        formatMs(k.calls > 0 ? k.totalMs / k.calls : Number.NaN), formatBytes(k.bytesAdded),
      ]),
    ));
  }
  if (!any) out.push('', 'No kernel profile was recorded.');
  return out.join('\n');
}

export function healthSection(report: Report): string {
  const out: string[] = ['## Numerical health', ''];
  const healthy = report.strategies.filter((s) => s.health);
  if (healthy.length === 0) return [...out, 'No numerical health check was recorded.'].join('\n');
  out.push(mdTable(
    ['Strategy', 'Non-finite occupancy', 'Non-finite ground process', 'Non-finite likelihood', 'Terms on the LOG_EPS floor'],
    healthy.map((s) => {
      const h = s.health!;
      return [s.strategy, fmtInt(h.nonFiniteOccupancy), fmtInt(h.nonFiniteGroundProcess), fmtInt(h.nonFiniteLikelihood), formatShare(h.floorShare)];
    }),
  ));
  const rows: string[][] = [];
  for (const s of healthy) {
    for (const e of s.health!.electrodes) {
      const floorBad = e.floorShare !== null && e.floorShare >= FLOOR_SHARE_SHOWN;
      if (e.nonFinite === 0 && !floorBad && !e.tooFewEncodingSpikes) continue;
      rows.push([
        s.strategy, e.electrode, fmtInt(e.nEncodingSpikes), fmtInt(e.nDecodingSpikes), fmtInt(e.nonFinite),
        formatShare(e.floorShare), yesNo(e.tooFewEncodingSpikes, 'yes', 'no'),
      ]);
    }
  }
  const nElectrodes = healthy[0]!.health!.electrodes.length;
  out.push('', rows.length > 0
    ? mdTable(['Strategy', 'Electrode', 'Encoding spikes', 'Decoding spikes', 'Non-finite', 'Floor share', 'Too few encoding spikes'], rows)
    : `All ${nElectrodes} electrodes are healthy: no NaN or Inf, under ${formatShare(FLOOR_SHARE_SHOWN, 0)} of terms on the floor, enough encoding spikes.`);
  return out.join('\n');
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const SEVERITY_LABEL: Record<Severity, string> = { error: '**ERROR**', warning: '**WARNING**', info: 'info' };

export function findingsSection(report: Report): string {
  const out: string[] = ['## Findings', ''];
  if (report.findings.length === 0) return [...out, 'Nothing to report.'].join('\n');
  const sorted = [...report.findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  for (const f of sorted) {
    const where = [f.strategy && `strategy ${f.strategy}`, f.electrode && `electrode ${f.electrode}`].filter(Boolean).join(', ');
    out.push(markdownLine(`- ${SEVERITY_LABEL[f.severity]} \`${f.id}\`: ${f.message}${where ? ` (${where})` : ''}`));
  }
  return out.join('\n');
}

export function recommendationSection(report: Report): string {
  const r = report.recommendation;
  const out = ['## Recommendation', ''];
  if (!r) return [...out, 'No recommendation: no strategy finished with usable results.'].join('\n');
  const tile = r.encTileSize !== undefined ? `, encoding tile ${fmtInt(r.encTileSize)}` : '';
  out.push(`**Use \`${r.strategy}\` with block size ${fmtInt(r.blockSize)}${tile}** on ${report.backend.name} (${report.backend.device}).`, '', r.reason);
  const u = r.runnerUp;
  if (u) {
    out.push('', `Runner-up: \`${u.strategy}\` against \`${u.against}\`, ${ratioWithCi(u.ratio, u.ratioCi95)} the time: ${u.verdict}.`);
  }
  return out.join('\n');
}

export function notApplicableSection(report: Report): string {
  const out = ['## Not applicable here', ''];
  if (report.notApplicable.length === 0) return [...out, 'Every measurement of the profiling guides applied to this run.'].join('\n');
  return [...out, ...report.notApplicable.map((n) => `- ${n}`)].join('\n');
}

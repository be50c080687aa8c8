/**
 * report.md, in the style of the profiling guides' baselines: what ran on what, then tables of
 * timings, speedups, agreement, the external engines, memory, stages, kernels and numerical health, a decode's posterior,
 * then findings and the recommendation.
 */
import type { MachineLoad, Report } from '../../shared/report';
import { markdownLine, markdownText } from '../../shared/untrustedText';
import { formatBytes, formatMs, formatShare } from '../../shared/format';
import { fmtInt, fmtSig, mdTable } from './format';
import {
  findingsSection, healthSection, kernelsSection, memorySection, notApplicableSection, recommendationSection, stagesSection,
} from './reportSections';
import { accuracySection } from './reportAccuracy';
import { externalSection } from './reportExternal';
import { posteriorSection, projectionSection } from './reportPosterior';
import { rooflineSection } from './reportRoofline';
import { agreementSection, timingsSection } from './reportTimings';

/** σ, ranges and spans come from float arithmetic on the data: rounded, they read as measured figures */
function list(values: readonly number[] | number): string {
  return (typeof values === 'number' ? [values] : values).map((v) => fmtSig(v)).join(', ');
}

function span(range: readonly [number, number]): string {
  return `${fmtSig(range[0])} … ${fmtSig(range[1])}`;
}

/** "load average 0.52 → 1.10 (1 min), other processes 3.2 % of the CPU time: quiet" */
function loadWords(load: MachineLoad): string {
  const avg = (xs: number[]): string => (xs[0] === undefined ? 'n/a' : xs[0].toFixed(2));
  const others = load.otherCpuShare === undefined ? '' : `, other processes ${formatShare(load.otherCpuShare)} of the CPU time`;
  const verdict = load.busy ? '**busy: timings are likely disturbed**' : 'quiet';
  return `load average ${avg(load.loadAverageStart)} → ${avg(load.loadAverageEnd)} (1 min)${others}: ${verdict}`;
}

function repeatsWords(report: Report): string {
  const rule = report.config.untilStable;
  if (!rule) return `${report.config.repeats} repeat(s)`;
  return `repeats until the median is within ±${formatShare(rule.relativeCi, 0)} (at least ${report.config.repeats}, ` +
    `at most ${rule.maxRepeats} or ${rule.maxTimeS} s per strategy)`;
}

function header(report: Report): string {
  const b = report.backend;
  const lines = [
    `# KDE profile: ${markdownLine(report.dataset.name)}`,
    '',
    `- **Status**: ${report.status}${report.error ? `: ${report.error.message}` : ''}`,
    ...(report.runId ? [`- **Run**: ${report.runId}${report.config.label ? ` (${report.config.label})` : ''}`] : []),
    `- **Date**: ${report.createdAt}`,
    `- **Tool**: ${report.tool.name} ${report.tool.version}, TensorFlow.js ${b.tfjsVersion}`,
    `- **Backend**: ${b.name} on ${b.device}${b.isGpu ? ' (GPU)' : ''}${b.isFallback ? ', software fallback adapter' : ''}; initialization ${formatMs(b.initMs)}`,
    `- **Why this backend**: ${b.reason}`,
    `- **Strategies**: ${report.config.strategies.join(', ')}; ${report.config.warmup} warm-up(s), ${repeatsWords(report)}`,
    ...(report.config.engines?.length ? [`- **External engines**: ${report.config.engines.join(', ')}`] : []),
    `- **System**: Node ${report.environment.node}, ${report.environment.platform}/${report.environment.arch}, ${report.environment.cpus} CPU(s), ${formatBytes(report.environment.totalMemoryBytes)} memory`,
    ...(report.environment.load ? [`- **Machine load while measuring**: ${loadWords(report.environment.load)}`] : []),
    ...(report.environment.engineNiceness ? [`- **Engine priority**: nice ${report.environment.engineNiceness} (${report.environment.engineNiceness > 0 ? 'below' : 'above'} normal)`] : []),
  ];
  if (b.warnings.length > 0) lines.push('', ...b.warnings.map((w) => `> ⚠️ ${w}`));
  return lines.join('\n');
}

function datasetSection(report: Report): string {
  const d = report.dataset;
  const rows: string[][] = [
    ['Source', d.source],
    ['Electrodes', fmtInt(d.nElectrodes)],
    ['Encoding spikes', fmtInt(d.nEncodingSpikes)],
    ['Decoding spikes', fmtInt(d.nDecodingSpikes)],
    ['Position samples', fmtInt(d.nPositionSamples)],
    ['Position dimensions', String(d.positionDims)],
    ['Position range', span(d.positionRange)],
    ['Time span (s)', span(d.timeSpan)],
    ['Decoding time bins', fmtInt(d.nTime)],
    ['Position bins', fmtInt(d.nBins)],
    ['Waveform feature dimensions', d.featureDims.join(', ')],
    ['Position σ', list(d.positionStd)],
    ['Waveform σ', list(d.waveformStd)],
    ['Block size', fmtInt(report.config.blockSize ?? d.blockSize)],
    ['Expected outputs in the input', d.hasExpected ? 'yes' : 'no'],
  ];
  const out = ['## Dataset', '', ...(report.datasetScale ? [`Compared with the presets: ${report.datasetScale}.`, ''] : []), mdTable(['', d.name], rows)];
  if (d.notes.length > 0) out.push('', ...d.notes.map((n) => `- ${n}`));
  return out.join('\n');
}

export function renderReportMarkdown(report: Report): string {
  const sections = [
    header(report),
    datasetSection(report),
    timingsSection(report),
    agreementSection(report),
    accuracySection(report),
    externalSection(report),
    memorySection(report),
    stagesSection(report),
    kernelsSection(report),
    rooflineSection(report),
    healthSection(report),
    posteriorSection(report),
    projectionSection(report),
    findingsSection(report),
    recommendationSection(report),
    notApplicableSection(report),
  ];
  // strings from the data file (its name, its electrodes') show as text, never as markup
  return markdownText(`${sections.filter((s) => s !== undefined).join('\n\n')}\n`);
}

/**
 * The peer bench's printout: per data set one row per side (the NumPy peer, the engine per
 * strategy) and the engine's best over the peer; then one summary row per data set. Ratios are
 * engine / peer, so below 1 means the engine is faster or smaller.
 */
import { cpus } from 'node:os';
import { isFailure, type Deviation, type EngineResult, type NldDeviation, type NldResult, type PeerResult, type SideFailure } from './sideResults';

export interface DatasetOutcome {
  name: string;
  file: string;
  peer: PeerResult | SideFailure;
  engine: (EngineResult | (SideFailure & { strategy: string }))[];
  best: string | null;
  /** engine best / peer: fit, predict, total (warm medians) and peak RSS */
  ratios: { fit: number; predict: number; total: number; peakRss: number } | null;
  /** non_local_detector per variant, when `--peer nld` asked for it */
  nld: (NldResult | (SideFailure & { variant: string }))[];
  /** the machine's 1-minute load average before and after, since other work skews the times */
  loadAverage: { before: number; after: number };
}

const cpuCount = (): number => cpus().length;
const ms = (v: number | null | undefined): string => (v == null ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
const ratio = (v: number): string => `${v.toFixed(2)}×`;
const dev = (d: Deviation | undefined): string => (d ? `${d.ok ? 'ok' : 'FAIL'} ${d.maxAbsDiff.toExponential(1)}` : '–');
/** NLD's deviation: the largest difference, and how many entries are off by more than 1e-3 relative */
const nldDev = (d: NldDeviation | undefined): string =>
  (!d || d.error ? '–' : `${d.maxAbsDiff === null ? '–' : d.maxAbsDiff.toExponential(1)}${d['over1e-3'] > 0 ? ` (${d['over1e-3']} > 1e-3)` : ''}`);

function describeResolved(r: EngineResult): string {
  if (r.strategy !== 'auto') return r.strategy;
  return `auto → ${Object.entries(r.resolved).map(([s, n]) => `${s} ×${n}`).join(', ')}`;
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

function sizesLine(p: PeerResult): string {
  const s = p.sizes;
  return `${s.electrodes} electrodes, ${s.encodingSpikes} encoding / ${s.decodingSpikes} decoding spikes, ${s.rows} rows × ${s.bins} bins, D = ${s.features.join('/')}`;
}

export function printDataset(o: DatasetOutcome): void {
  const peer = isFailure(o.peer) ? null : o.peer;
  console.log(`\n${o.name} · ${peer ? sizesLine(peer) : o.file}`);
  const header = ['side', 'first (ms)', 'fit med (ms)', 'predict med (ms)', 'total med (ms)', 'peak RSS (MiB)', 'n', 'vs float64', 'vs peer'];
  const rows: string[][] = [];
  if (peer) {
    const parity = peer.parity?.arrays.log_likelihood_nonlocal;
    rows.push([`numpy peer (${peer.blas?.name ?? 'BLAS ?'}, ${peer.blasThreads ?? '?'} threads)`, ms(peer.firstFitMs + peer.firstPredictMs), ms(peer.fitMedianMs),
      ms(peer.predictMedianMs), ms(peer.totalMedianMs), mib(peer.peakRssBytes), String(peer.totalMs.length), dev(parity), '–']);
  } else {
    rows.push(['numpy peer', 'failed', '', '', '', '', '', '', '']);
  }
  for (const e of o.engine) {
    if (isFailure(e)) {
      rows.push([`engine ${e.strategy}`, 'failed', '', '', '', '', '', '', '']);
      continue;
    }
    rows.push([`engine ${describeResolved(e)}`, ms(e.firstFitMs + e.firstPredictMs), ms(e.fitMedianMs), ms(e.predictMedianMs), ms(e.totalMedianMs),
      mib(e.peakRssBytes), String(e.totalMs.length), dev(e.vsExpected), dev(e.vsPeer)]);
  }
  rows.push(...nldRows(o));
  table(header, rows);
  for (const e of o.engine) if (isFailure(e)) console.log(`  engine ${e.strategy}: ${e.error}`);
  for (const n of o.nld) if (isFailure(n)) console.log(`  nld ${n.variant}: ${n.error}`);
  if (isFailure(o.peer)) console.log(`  numpy peer: ${o.peer.error}`);
  console.log(`1-min load average on ${cpuCount()} cores: ${o.loadAverage.before.toFixed(1)} before, ${o.loadAverage.after.toFixed(1)} after`);
  if (o.ratios && o.best) {
    const r = o.ratios;
    console.log(`engine best (${o.best}) / peer: fit ${ratio(r.fit)}, predict ${ratio(r.predict)}, total ${ratio(r.total)}, peak RSS ${ratio(r.peakRss)}`);
  }
}

function nldRows(o: DatasetOutcome): string[][] {
  if (o.nld.length === 0) return [];
  return o.nld.map((n) => (isFailure(n)
    ? [`nld ${n.variant}`, 'not run', '', '', '', '', '', '', '']
    : [`nld ${n.peer.replace(/^nld-/, '')} (JAX ${n.jaxBackend}, ${n.compiles ? `${n.compiles.cold} compiles cold` : 'compiles ?'})`,
      ms(n.firstFitMs + n.firstPredictMs), ms(n.fitMedianMs), ms(n.predictMedianMs), ms(n.totalMedianMs), mib(n.peakRssBytes), String(n.totalMs.length),
      nldDev(n.vsExpected), nldDev(n.vsPeer)]));
}

/** the engine's best warm total over NLD's fastest variant's, or null when either is missing */
export function bestOverNld(o: DatasetOutcome): number | null {
  const best = o.engine.find((e): e is EngineResult => !isFailure(e) && e.strategy === o.best);
  const nldTotals = o.nld.filter((n): n is NldResult => !isFailure(n) && n.totalMedianMs !== null).map((n) => n.totalMedianMs!);
  if (!best || best.totalMedianMs === null || nldTotals.length === 0) return null;
  return best.totalMedianMs / Math.min(...nldTotals);
}

export function printSummary(outcomes: DatasetOutcome[]): void {
  console.log('\nengine best / NumPy peer (warm medians; < 1 means the engine is faster or smaller)');
  const rows = outcomes.map((o) => {
    const peer = isFailure(o.peer) ? null : o.peer;
    const best = o.engine.find((e): e is EngineResult => !isFailure(e) && e.strategy === o.best);
    const r = o.ratios;
    return [o.name, ms(peer?.totalMedianMs), best ? `${ms(best.totalMedianMs)} (${o.best})` : '–',
      r ? ratio(r.fit) : '–', r ? ratio(r.predict) : '–', r ? ratio(r.total) : '–', r ? ratio(r.peakRss) : '–', nldRatio(o)];
  });
  table(['data', 'peer total (ms)', 'engine best total (ms)', 'fit', 'predict', 'total', 'peak RSS', 'total / NLD'], rows);
}

function nldRatio(o: DatasetOutcome): string {
  const r = bestOverNld(o);
  return r === null ? '–' : ratio(r);
}

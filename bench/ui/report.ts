/**
 * The UI benchmark's figures: medians per implementation over its measured visits, ratios to the
 * first implementation of the same invocation, a table on stdout and the whole record as JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { median, printColumns } from '../table';
import type { ServiceSide } from './serviceSide';
import type { VisitResult } from './visit';

export interface ImplementationResult {
  label: string;
  /** what was measured: an app build's folder, or flame-chart-js */
  source: string;
  gestures: string;
  /** the first visit: the service had not read the run yet (app), nothing was cached */
  cold: VisitResult;
  /** the measured visits, after the cold one */
  visits: VisitResult[];
}

export interface Medians {
  firstPaintColdMs: number;
  firstPaintMs: number;
  /** the page's load event (its scripts fetched and run), ms after navigation start */
  pageLoadedMs: number | null;
  /** flame-chart-js only: first paint minus the moment its data was parsed */
  renderAfterLoadMs: number | null;
  zoomFps: number;
  zoomLongestFrameMs: number;
  panFps: number;
  panLongestFrameMs: number;
}

export function mediansOf(r: ImplementationResult): Medians {
  const of = (pick: (v: VisitResult) => number) => median(r.visits.map(pick));
  const loaded = r.visits.filter((v) => v.dataLoadedMs !== null);
  const booted = r.visits.filter((v) => v.pageLoadedMs !== null);
  return {
    firstPaintColdMs: r.cold.firstPaintMs,
    firstPaintMs: of((v) => v.firstPaintMs),
    pageLoadedMs: booted.length ? median(booted.map((v) => v.pageLoadedMs!)) : null,
    renderAfterLoadMs: loaded.length ? median(loaded.map((v) => v.firstPaintMs - v.dataLoadedMs!)) : null,
    zoomFps: of((v) => v.zoom.fps),
    zoomLongestFrameMs: of((v) => v.zoom.longestFrameMs),
    panFps: of((v) => v.pan.fps),
    panLongestFrameMs: of((v) => v.pan.longestFrameMs),
  };
}

const fmt = (v: number | null, digits = 0): string => (v === null || !Number.isFinite(v) ? '–' : v.toFixed(digits));
const ratio = (v: number, ref: number): string => (ref > 0 && Number.isFinite(v) ? `${(v / ref).toFixed(2)}×` : '–');

export function printReport(title: string, results: ImplementationResult[]): void {
  const medians = results.map(mediansOf);
  const ref = medians[0];
  const header = [
    'implementation', 'paint cold ms', 'paint med ms', 'zoom fps', 'zoom max frame ms', 'pan fps', 'pan max frame ms', 'paint ×', 'zoom fps ×', 'pan fps ×',
  ];
  const rows = results.map((r, i) => {
    const m = medians[i]!;
    return [
      r.label, fmt(m.firstPaintColdMs), fmt(m.firstPaintMs), fmt(m.zoomFps, 1), fmt(m.zoomLongestFrameMs), fmt(m.panFps, 1), fmt(m.panLongestFrameMs),
      ref ? ratio(m.firstPaintMs, ref.firstPaintMs) : '–', ref ? ratio(m.zoomFps, ref.zoomFps) : '–', ref ? ratio(m.panFps, ref.panFps) : '–',
    ];
  });
  printColumns(title, header, rows);
  console.log(`medians over ${results[0]?.visits.length ?? 0} visits each; "paint cold" is the first visit alone (the service had not read the run yet).`);
  console.log(`ratios are to ${results[0]?.label ?? '–'}: paint × < 1 paints sooner, fps × > 1 keeps more frames.`);
  for (const [i, r] of results.entries()) {
    const m = medians[i]!;
    const parts = [`page loaded at ${fmt(m.pageLoadedMs)} ms`];
    if (m.renderAfterLoadMs !== null) parts.push(`first render ${fmt(m.renderAfterLoadMs)} ms after its data was fetched and parsed`);
    console.log(`${r.label}: ${parts.join(', ')} (medians).`);
    const still = [r.cold, ...r.visits].flatMap((v) => [v.zoom.paints === 0 ? 'zoom' : '', v.pan.paints === 0 ? 'pan' : '']).filter(Boolean);
    if (still.length) console.log(`${r.label}: WARNING: no paint during ${[...new Set(still)].join(' and ')} in some visits: the gesture did not reach it (see gestures=)`);
    const problems = [...new Set([r.cold, ...r.visits].flatMap((v) => v.problems))];
    if (problems.length) console.log(`${r.label}: page problems: ${problems.slice(0, 5).join(' | ')}`);
  }
}

export interface BenchRecord {
  date: string;
  events: number;
  runId: string;
  runDurationUs: number;
  browser: string;
  machine: { cpus: number; cpuModel: string; loadAverage: number[] };
  options: { visits: number; interactMs: number };
  service: ServiceSide;
  results: (ImplementationResult & { medians: Medians })[];
}

export function writeRecord(path: string, record: Omit<BenchRecord, 'results'>, results: ImplementationResult[]): void {
  const full: BenchRecord = { ...record, results: results.map((r) => ({ ...r, medians: mediansOf(r) })) };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(full, null, 2) + '\n');
}


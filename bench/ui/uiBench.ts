/**
 * `npm run bench:ui`: the live timeline at production scale in Chromium. A synthetic finished run
 * of N events (cached per N in the temp folder) is served by `kde-profiler serve` to each app
 * build given, and drawn by flame-chart-js from the whole trace for comparison; each is visited
 * once cold and then k times, measuring first paint, zoom and pan. Prints medians with ratios to
 * the first implementation and writes everything as JSON. Speed lives here, never in tests.
 *
 *   npm run bench:ui -- [--events 1000000] [--renderer DIR[,gestures=app|echarts][,open=route|runs][,label=NAME]]...
 *                       [--visits 5] [--interact-s 3] [--no-flame-chart] [--out bench/results/ui-bench.json]
 *
 * --renderer is an app build (`npx electron-vite build` leaves one in out/renderer, the default);
 * give it more than once to compare builds. gestures says how that build zooms and pans (visit.ts):
 * `app`, the current track view (Ctrl+wheel, horizontal wheel), or `echarts`, the former ECharts
 * timeline (wheel, drag). open says how the page reaches the run: `route`, the address
 * `#/live?run=<id>` (default), or `runs`, the Runs view's Timeline button, for builds older than
 * that address.
 */
import { cpus, loadavg } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServe } from '../../test/e2e/harness';
import { startFlameChartSite } from './flameChartTarget';
import { printReport, writeRecord, type ImplementationResult } from './report';
import { measureServiceSide } from './serviceSide';
import { cachedSyntheticRun, checkEventCount, type SyntheticRun } from './syntheticRun';
import { GESTURES, measureVisit, type FrameStats, type GestureProfile, type VisitOptions, type VisitResult } from './visit';

interface Target {
  label: string;
  source: string;
  gestures: GestureProfile;
  /** starts what serves the page; returns its address, how to reach the run from there, how to stop it */
  start(run: SyntheticRun): Promise<{ url: string; open?: (page: Page) => Promise<void>; stop(): Promise<unknown> }>;
}

const log = (line: string) => console.log(line);

function fail(message: string): never {
  console.error(`bench:ui: ${message}`);
  process.exit(2);
}

function positiveNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) fail(`--${flag}: expected a positive number, got '${value}'`);
  return n;
}

/** `DIR[,gestures=app|echarts][,open=route|runs][,label=NAME]` */
function appTarget(spec: string): Target {
  const [dirPart, ...options] = spec.split(',');
  const dir = resolve(dirPart!);
  if (!existsSync(join(dir, 'index.html'))) fail(`--renderer ${dirPart}: no index.html there; build the app with \`npx electron-vite build\` (it writes out/renderer)`);
  let gestures: GestureProfile = 'app';
  let label = basename(dir);
  let viaRuns = false;
  for (const option of options) {
    const [key, value = ''] = option.split('=', 2);
    if (key === 'gestures' && (value === 'app' || value === 'echarts')) gestures = value;
    else if (key === 'open' && (value === 'route' || value === 'runs')) viaRuns = value === 'runs';
    else if (key === 'label' && value) label = value;
    else fail(`--renderer ${spec}: unknown option '${option}' (expected gestures=app|echarts, open=route|runs or label=NAME)`);
  }
  return {
    label, source: dir, gestures,
    async start(run) {
      const serve = await startServe({ runsDir: run.runsDir, staticDir: dir, timeoutMs: 60_000 });
      const stop = () => serve.stop();
      if (!viaRuns) return { url: `${serve.url}#/live?run=${run.runId}`, stop };
      // a build from before `#/live?run=<id>`: the Runs view's Timeline button attaches the live view
      const open = (page: Page) => page.getByTestId(`timeline-run-${run.runId}`).click({ timeout: 60_000 });
      return { url: `${serve.url}#/runs`, open, stop };
    },
  };
}

const flameChartTarget: Target = {
  label: 'flame-chart-js', source: 'flame-chart-js 3.3.0 (bench/ui/flameChartPage)', gestures: 'flame-chart-js',
  async start(run) {
    const site = await startFlameChartSite(run, log);
    return { url: site.url, stop: () => site.close() };
  },
};

async function measureTarget(
  browser: Browser, target: Target, run: SyntheticRun, visits: number, options: VisitOptions, shotsDir: string,
): Promise<ImplementationResult> {
  log(`\n${target.label} (${target.source}), gestures: ${target.gestures}`);
  const served = await target.start(run);
  try {
    const gestures = GESTURES[target.gestures];
    const phase = (f: FrameStats) => `${f.fps.toFixed(1)} fps (max frame ${f.longestFrameMs.toFixed(0)} ms, ${f.inputs} inputs, ${f.paints} paints)`;
    const describe = (v: VisitResult) =>
      `paint ${v.firstPaintMs.toFixed(0)} ms (page loaded at ${v.pageLoadedMs?.toFixed(0) ?? '–'} ms, ${v.spans} spans), zoom ${phase(v.zoom)}, pan ${phase(v.pan)}`;
    const screenshotPath = join(shotsDir, `ui-bench-${target.label.replace(/[^\w.-]+/g, '_')}.png`);
    const cold = await measureVisit(browser, served.url, gestures, { ...options, screenshotPath }, served.open);
    log(`  cold:    ${describe(cold)}`);
    const measured = [];
    for (let i = 0; i < visits; i++) {
      const v = await measureVisit(browser, served.url, gestures, options, served.open);
      log(`  visit ${i + 1}: ${describe(v)}`);
      measured.push(v);
    }
    return { label: target.label, source: target.source, gestures: target.gestures, cold, visits: measured };
  } finally {
    await served.stop();
  }
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      events: { type: 'string', default: '1000000' },
      renderer: { type: 'string', multiple: true },
      visits: { type: 'string', default: '5' },
      'interact-s': { type: 'string', default: '3' },
      'first-paint-timeout-s': { type: 'string', default: '180' },
      'no-flame-chart': { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/ui-bench.json' },
    },
  });
  let events: number;
  try {
    events = checkEventCount(Number(args.events), '--events');
  } catch (e) {
    fail((e as Error).message);
  }
  const visits = Math.round(positiveNumber(args.visits!, 'visits'));
  const options: VisitOptions = {
    interactMs: positiveNumber(args['interact-s']!, 'interact-s') * 1000,
    firstPaintTimeoutMs: positiveNumber(args['first-paint-timeout-s']!, 'first-paint-timeout-s') * 1000,
  };
  if (!existsSync(CHROMIUM_PATH)) fail(`Chromium is not at ${CHROMIUM_PATH} (Debian: apt-get install chromium)`);
  const targets = (args.renderer?.length ? args.renderer : ['out/renderer']).map(appTarget);
  if (!args['no-flame-chart']) targets.push(flameChartTarget);

  const run = await cachedSyntheticRun(events, log);
  const service = await measureServiceSide(run);
  log(
    `service: first timeline query ${service.firstQueryMs.toFixed(0)} ms (reads events.ndjson, builds the index); then the whole run ` +
      `${service.wholeRunQueryMs.toFixed(1)} ms (${service.wholeRunSpans} boxes at 1200 px), a tenth of it ${service.windowQueryMs.toFixed(1)} ms (medians)`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const results: ImplementationResult[] = [];
  try {
    mkdirSync(dirname(resolve(args.out!)), { recursive: true });
    for (const target of targets) results.push(await measureTarget(browser, target, run, visits, options, dirname(resolve(args.out!))));
  } finally {
    await browser.close();
  }
  const title = `Timeline at ${run.events.toLocaleString('en-US')} events (run ${run.runId}, ${(run.durationUs / 1e6).toFixed(1)} s long), Chromium ${browser.version()}`;
  printReport(title, results);
  const cpu = cpus();
  writeRecord(
    args.out!,
    {
      date: new Date().toISOString(), events: run.events, runId: run.runId, runDurationUs: run.durationUs, browser: `Chromium ${browser.version()}`,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model ?? 'unknown', loadAverage: loadavg() }, options: { visits, interactMs: options.interactMs }, service,
    },
    results,
  );
  log(`\nwritten to ${args.out}, with a screenshot per implementation after its first pan beside it`);
}

await main();

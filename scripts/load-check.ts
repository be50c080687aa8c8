/**
 * A load check for web mode, not a timed test: starts the server in this process over a throwaway
 * runs folder, starts a live `medium` run, and has N pages (in a child process, so their work is
 * not counted as the server's) watch it the way the page does: subscribe to the run, ask for its
 * record and counters, and refresh the timeline at most every 250 ms while notices say it changed. Beside
 * them a steady stream of static GETs (`/`, the JS bundle) and listRuns calls. Prints latency
 * percentiles, event delivery lag, the server's peak RSS, CPU time per second and event-loop
 * delay, errors, a verdict, and saves it all under bench/results/. On a machine shared with other
 * work the latency tails follow that work; the CPU time is the steadier figure to compare.
 *
 *   node --import tsx scripts/load-check.ts [--pages 20] [--seconds 30] [--rate 20] [--repeats 3]
 *                                           [--engine-niceness N]
 *
 * --engine-niceness sets the engine's nice value instead of the one the app and web mode use
 * (0 compares with an engine at normal priority).
 *
 * Needs the built renderer (`npm run build`).
 */
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { STRATEGIES, type RunConfig } from '../src/shared/config';
import type { RunEvent } from '../src/shared/events';
import { createProfilerService } from '../src/main/service';
import { startServer } from '../src/main/server';
import { percentile, report, round, summary } from './loadCheckFigures';
import { PageSocket } from './pageSocket';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const STATIC_DIR = join(REPO_ROOT, 'out', 'renderer');
const ROLE_ENV = 'KDE_LOAD_CHECK_ROLE';
/** as the live run view: one timeline request at a time, at most every 250 ms */
const TIMELINE_REFRESH_MS = 250;
const CALL_TIMEOUT_MS = 30_000;
/** what the verdict holds each figure to */
const LIMITS = { staticP99Ms: 200, listRunsP99Ms: 500, eventLagP99Ms: 1000 };

interface ClientPlan { wsUrl: string; origin: string; runId: string; pages: number; seconds: number; rate: number; jsAsset: string }
interface ClientResult {
  latencyMs: Record<'staticHtml' | 'staticJs' | 'listRuns' | 'timeline' | 'getRun', number[]>;
  /** per event signature, when each page received it (ms since the epoch) */
  received: Record<string, number[]>;
  errors: string[];
  clientLoopDelayP99Ms: number;
}

/** ms since the epoch with sub-ms resolution, comparable between the two processes */
const wallMs = () => performance.timeOrigin + performance.now();

/** the same string for an event wherever it is seen: the service's object, or the page's parsed copy */
function signature(e: RunEvent): string {
  return JSON.stringify(e);
}


/** The child: N pages watching the run, plus the steady stream, for `seconds`. */
async function runClients(plan: ClientPlan): Promise<ClientResult> {
  const result: ClientResult = { latencyMs: { staticHtml: [], staticJs: [], listRuns: [], timeline: [], getRun: [] }, received: {}, errors: [], clientLoopDelayP99Ms: 0 };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const timed = async (kind: keyof ClientResult['latencyMs'], work: () => Promise<unknown>) => {
    const t0 = performance.now();
    try {
      await work();
      result.latencyMs[kind].push(performance.now() - t0);
    } catch (e) {
      result.errors.push(`${kind}: ${(e as Error).message}`);
    }
  };
  const pages = Array.from({ length: plan.pages }, () => {
    let latestUs = 0;
    let timelineBusy = false;
    let lastTimelineMs = 0;
    const seen = new Set<string>();
    const page: PageSocket = new PageSocket(plan.wsUrl, plan.origin, { event: ({ event: e }) => {
      const sig = signature(e);
      if (!seen.has(sig)) {
        seen.add(sig);
        (result.received[sig] ??= []).push(wallMs());
      }
      if (e.type !== 'timeline') return;
      latestUs = Math.max(latestUs, e.latestUs);
      if (timelineBusy || performance.now() - lastTimelineMs < TIMELINE_REFRESH_MS) return;
      timelineBusy = true;
      lastTimelineMs = performance.now();
      void timed('timeline', () => page.request({ kind: 'call', method: 'getTimeline', params: [plan.runId, { startUs: 0, endUs: Math.max(latestUs, 1), widthPx: 1200 }] }))
        .finally(() => (timelineBusy = false));
    }, frame: (m) => {
      if (!m) result.errors.push('unreadable server message');
    } }, CALL_TIMEOUT_MS);
    return page;
  });
  await Promise.all(pages.map((p) => p.opened));
  await Promise.all(pages.map(async (p) => {
    await p.request({ kind: 'subscribe', runId: plan.runId });
    await timed('getRun', () => Promise.all([
      p.request({ kind: 'call', method: 'getRun', params: [plan.runId] }),
      p.request({ kind: 'call', method: 'getCounters', params: [plan.runId] }),
    ]));
  }));

  const base = plan.origin;
  const getStatic = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  };
  const inFlight = new Set<Promise<void>>();
  let tick = 0;
  const stream = setInterval(() => {
    const n = tick++;
    const kind = n % 3;
    const work = kind === 0 ? timed('staticHtml', () => getStatic('/'))
      : kind === 1 ? timed('staticJs', () => getStatic(plan.jsAsset))
        : timed('listRuns', () => pages[n % pages.length]!.request({ kind: 'call', method: 'listRuns', params: [] }));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  }, 1000 / plan.rate);
  await new Promise((r) => setTimeout(r, plan.seconds * 1000));
  clearInterval(stream);
  await Promise.all(inFlight);
  for (const p of pages) p.close();
  loop.disable();
  result.clientLoopDelayP99Ms = loop.percentile(99) / 1e6;
  return result;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '20' }, seconds: { type: 'string', default: '30' },
      rate: { type: 'string', default: '20' }, repeats: { type: 'string', default: '3' },
      'engine-niceness': { type: 'string' },
    },
  });
  const [pages, seconds, rate, repeats] = [values.pages, values.seconds, values.rate, values.repeats].map(Number) as [number, number, number, number];
  if (![pages, seconds, rate, repeats].every((v) => Number.isFinite(v) && v > 0)) throw new Error('--pages, --seconds, --rate and --repeats take positive numbers');
  if (!existsSync(join(STATIC_DIR, 'index.html'))) throw new Error(`the built renderer is missing at ${STATIC_DIR}: run \`npm run build\` first`);
  const jsAsset = /\/assets\/[^"']+\.js/.exec(readFileSync(join(STATIC_DIR, 'index.html'), 'utf8'))?.[0];
  if (!jsAsset) throw new Error(`no JS bundle named in ${join(STATIC_DIR, 'index.html')}`);

  const runsDir = await mkdtemp(join(tmpdir(), 'kde-load-check-'));
  const niceness = values['engine-niceness'] === undefined ? undefined : Number(values['engine-niceness']);
  if (niceness !== undefined && !(Number.isInteger(niceness) && niceness >= 0 && niceness <= 19)) throw new Error('--engine-niceness takes a whole number from 0 to 19');
  const service = createProfilerService({ runsDir, servesPages: true, ...(niceness !== undefined ? { engineNiceness: niceness } : {}) });
  const server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir: STATIC_DIR });
  const origin = new URL(server.url).origin;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let peakRssBytes = process.memoryUsage().rss;
  // CPU the server's process spent while the pages watched: less at the mercy of other work on the machine than latencies
  const cpuAtStart = process.cpuUsage();
  const wallAtStartMs = performance.now();
  const rssTimer = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss)), 100);
  try {
    const config: RunConfig = {
      data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
      strategies: [...STRATEGIES], repeats, warmup: 1, local: false, saveLikelihood: false, trace: true,
    };
    const startedMs = performance.now();
    const { runId } = await service.startRun(config);
    const emitted = new Map<string, number>();
    service.subscribe(runId, (e) => {
      const sig = signature(e);
      if (!emitted.has(sig)) emitted.set(sig, wallMs());
    });
    console.log(`server ${origin}, run ${runId} (medium, ${STRATEGIES.length} strategies, ${repeats} repeats); ${pages} pages and ${rate} requests/s for ${seconds} s`);
    const plan: ClientPlan = { wsUrl: `ws://${new URL(origin).host}/ws?token=${server.token}`, origin, runId, pages, seconds, rate, jsAsset };
    const clients = await inChild(plan);
    const cpu = process.cpuUsage(cpuAtStart);
    const serverCpuMsPerS = (cpu.user + cpu.system) / 1000 / ((performance.now() - wallAtStartMs) / 1000);
    let waiting: NodeJS.Timeout | undefined;
    let final = await Promise.race([service.whenFinished(runId), new Promise<null>((r) => (waiting = setTimeout(() => r(null), 120_000)))]);
    clearTimeout(waiting);
    if (!final) {
      await service.cancelRun(runId);
      final = await service.whenFinished(runId);
    }
    const runMs = performance.now() - startedMs;
    const engineNiceness = (await service.getRun(runId)).report?.environment.engineNiceness ?? 0;
    const staticMs = [...clients.latencyMs.staticHtml, ...clients.latencyMs.staticJs];
    const lags: number[] = [];
    for (const [sig, times] of Object.entries(clients.received)) {
      const at = emitted.get(sig);
      if (at !== undefined) for (const t of times) lags.push(t - at);
    }
    const figures = {
      when: new Date().toISOString(), pages, seconds, rate, repeats, runId, runStatus: final.status, runSeconds: round(runMs / 1000), engineNiceness,
      static: summary(staticMs), staticHtml: summary(clients.latencyMs.staticHtml), staticJs: summary(clients.latencyMs.staticJs), listRuns: summary(clients.latencyMs.listRuns),
      timeline: summary(clients.latencyMs.timeline), openRun: summary(clients.latencyMs.getRun), eventLag: summary(lags),
      serverPeakRssMB: round(peakRssBytes / 2 ** 20), serverCpuMsPerS: round(serverCpuMsPerS), serverLoopDelayP99Ms: round(loop.percentile(99) / 1e6), serverLoopDelayMaxMs: round(loop.max / 1e6),
      clientLoopDelayP99Ms: round(clients.clientLoopDelayP99Ms), errors: clients.errors.length, firstErrors: clients.errors.slice(0, 10),
    };
    const problems = [
      figures.errors > 0 ? `${figures.errors} errors` : '',
      final.status !== 'completed' ? `the run ended ${final.status}` : '',
      percentile(staticMs, 99) > LIMITS.staticP99Ms ? `static p99 over ${LIMITS.staticP99Ms} ms` : '',
      percentile(clients.latencyMs.listRuns, 99) > LIMITS.listRunsP99Ms ? `listRuns p99 over ${LIMITS.listRunsP99Ms} ms` : '',
      percentile(lags, 99) > LIMITS.eventLagP99Ms ? `event lag p99 over ${LIMITS.eventLagP99Ms} ms` : '',
    ].filter(Boolean);
    const verdict = problems.length === 0 ? `OK: ${pages} pages watched a live run with no errors, every p99 within its limit` : `NOT OK: ${problems.join('; ')}`;
    report({ ...figures, verdict }, join(REPO_ROOT, 'bench', 'results'));
  } finally {
    clearInterval(rssTimer);
    await server.close();
    await service.close();
    await rm(runsDir, { recursive: true, force: true });
  }
}

/** Runs the pages in a child process and resolves with what they measured. */
function inChild(plan: ClientPlan): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, [ROLE_ENV]: 'clients' } });
    let result: ClientResult | undefined;
    child.on('message', (m) => (result = m as ClientResult));
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`the pages' process exited with ${String(code)} before reporting`))));
    child.send(plan);
  });
}

if (process.env[ROLE_ENV] === 'clients') {
  process.once('message', (plan) => {
    runClients(plan as ClientPlan).then(
      (result) => process.send!(result, () => process.exit(0)),
      (e: unknown) => {
        console.error(`pages: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  });
} else {
  main().catch((e: unknown) => {
    console.error(`load check: ${(e as Error).message}`);
    process.exitCode = 1;
  });
}

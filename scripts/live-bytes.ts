/**
 * What a page receives while it watches a live run, in bytes and messages: starts web mode's
 * server in this process over a throwaway runs folder, connects two pages over the WebSocket the
 * way the app's page does (subscribed to every run before it starts one), starts the run from one
 * of them, and counts every message each receives until the run has ended.
 *
 *   listening  subscribes and asks nothing: what the run's events alone cost
 *   watching   as the live run view: the run's record and counters once, then the timeline of the
 *              whole run again at most every 250 ms while the run says its timeline changed
 *
 *   node --import tsx scripts/live-bytes.ts [--data preset:medium] [--strategy all]
 *
 * The run is the CLI's `kde-profiler run --data preset:medium --strategy all`: the CLI's defaults
 * for everything else. Needs no built renderer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseRunConfig, STRATEGIES } from '../src/shared/config';
import type { ServerMessage } from '../src/shared/wire';
import { createProfilerService } from '../src/main/service';
import { startServer } from '../src/main/server';
import { PageSocket, type EventMessage } from './pageSocket';

const TIMELINE_REFRESH_MS = 250;
const CALL_TIMEOUT_MS = 60_000;
/** events that say nothing about the timeline: the rest (trace batches, timeline notices) do */
const NOT_TIMELINE = new Set(['progress', 'status', 'log']);
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

interface Tally {
  messages: number;
  bytes: number;
  byKind: Record<string, { messages: number; bytes: number }>;
}

const emptyTally = (): Tally => ({ messages: 0, bytes: 0, byKind: {} });

function count(t: Tally, kind: string, bytes: number): void {
  t.messages++;
  t.bytes += bytes;
  const k = (t.byKind[kind] ??= { messages: 0, bytes: 0 });
  k.messages++;
  k.bytes += bytes;
}

/** the message's kind for the tally: an event by its type, an answer by the method asked */
function kindOf(m: ServerMessage, methodOf: (id: number) => string | undefined): string {
  if (m.kind === 'event') return `event ${m.event.type}`;
  return `answer ${methodOf(m.id) ?? '?'}`;
}

/** A page that counts every frame it receives, by kind. */
class Page extends PageSocket {
  readonly tally: Tally;

  constructor(url: string, origin: string, onEvent: (m: EventMessage) => void) {
    const tally = emptyTally();
    super(url, origin, { event: onEvent, frame: (m, bytes, methodOf) => count(tally, m ? kindOf(m, methodOf) : 'unreadable', bytes) }, CALL_TIMEOUT_MS);
    this.tally = tally;
  }
}

/** the live run view's timeline refresh: one request at a time, at most every TIMELINE_REFRESH_MS, one more after the end */
function timelineWatcher(page: Page, runId: () => string | null) {
  let busy = false;
  let again = false;
  let lastMs = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let latestUs = 1;
  const refresh = async (): Promise<void> => {
    const id = runId();
    if (id === null) return;
    busy = true;
    lastMs = performance.now();
    try {
      const view = (await page.call('getTimeline', id, { startUs: 0, endUs: latestUs, widthPx: 1200 })) as { totalUs: number };
      latestUs = Math.max(latestUs, view.totalUs);
    } finally {
      busy = false;
      if (again) schedule();
    }
  };
  const schedule = (): void => {
    if (busy) {
      again = true;
      return;
    }
    again = false;
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void refresh();
    }, Math.max(0, lastMs + TIMELINE_REFRESH_MS - performance.now()));
  };
  const idle = async (): Promise<void> => {
    while (busy || timer !== undefined) await new Promise((r) => setTimeout(r, 20));
  };
  return { schedule, idle, seeLatest: (us: number) => (latestUs = Math.max(latestUs, us)) };
}

function print(name: string, t: Tally): void {
  console.log(`${name}: ${t.messages} messages, ${t.bytes} bytes (${(t.bytes / 2 ** 20).toFixed(2)} MiB)`);
  for (const [kind, k] of Object.entries(t.byKind).sort((a, b) => b[1].bytes - a[1].bytes)) {
    console.log(`  ${kind.padEnd(24)} ${String(k.messages).padStart(7)} messages ${String(k.bytes).padStart(12)} bytes`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string', default: 'preset:medium' }, strategy: { type: 'string', default: 'all' } } });
  const preset = /^preset:(\w+)$/.exec(values.data)?.[1];
  if (!preset) throw new Error('--data takes preset:NAME');
  // the CLI's run: every setting but the data and strategies the run config's default, as the CLI leaves them
  const config = parseRunConfig({
    data: { kind: 'preset', name: preset },
    strategies: values.strategy === 'all' ? [...STRATEGIES] : values.strategy.split(','),
  });
  const runsDir = await mkdtemp(join(tmpdir(), 'kde-live-bytes-'));
  const staticDir = await mkdtemp(join(tmpdir(), 'kde-live-bytes-page-'));
  const service = createProfilerService({ runsDir, servesPages: true });
  const server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir });
  const origin = new URL(server.url).origin;
  const wsUrl = `ws://${new URL(origin).host}/ws?token=${server.token}`;
  let runId: string | null = null;
  let ended: () => void = () => undefined;
  const runEnded = new Promise<void>((r) => (ended = r));
  try {
    const listening = new Page(wsUrl, origin, (m) => {
      if (m.event.type === 'status' && m.event.runId === runId && TERMINAL.has(m.event.status)) ended();
    });
    const watching: Page = new Page(wsUrl, origin, (m) => {
      if (m.event.runId !== runId) return;
      if (m.event.type === 'progress') watcher.seeLatest(m.event.progress.elapsedMs * 1000);
      if (!NOT_TIMELINE.has(m.event.type) || (m.event.type === 'status' && TERMINAL.has(m.event.status))) watcher.schedule();
    });
    const watcher = timelineWatcher(watching, () => runId);
    await Promise.all([listening.opened, watching.opened]);
    await Promise.all([listening.request({ kind: 'subscribe', runId: '*' }), watching.request({ kind: 'subscribe', runId: '*' })]);
    const t0 = performance.now();
    runId = ((await watching.call('startRun', config)) as { runId: string }).runId;
    await Promise.all([watching.call('getRun', runId), watching.call('getCounters', runId)]);
    await runEnded;
    await watcher.idle();
    // the status may overtake the last batches on the way to a page: wait until nothing more comes
    for (let before = -1; before !== listening.tally.messages + watching.tally.messages;) {
      before = listening.tally.messages + watching.tally.messages;
      await new Promise((r) => setTimeout(r, 500));
    }
    const entry = (await service.getRun(runId)).entry;
    console.log(`run ${runId}: ${preset}, strategies ${config.strategies.join(', ')}, repeats ${config.repeats}, warmup ${config.warmup}; ${entry.status} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    print('listening page', listening.tally);
    print('watching page', watching.tally);
    listening.close();
    watching.close();
  } finally {
    await server.close();
    await service.close();
    await rm(runsDir, { recursive: true, force: true });
    await rm(staticDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`live-bytes: ${(e as Error).message}`);
  process.exitCode = 1;
});

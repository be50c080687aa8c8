/**
 * What the service's calls share: the run store and the promise that its folder is ready, the run
 * queue, the event bus, and the timelines of recorded runs (a run's live one is adopted when it
 * ends, so the first look at a finished run does not read its file again). Beside the queue: the
 * progress files its runs keep for other processes' pages, and the runs other processes run in
 * the same folder, followed for this service's pages (liveFolder/).
 */
import { resolve } from 'node:path';
import { assertRunId } from '../../shared/runIds';
import { forkEngine, type SpawnEngine } from '../host';
import { EventBus } from './eventBus';
import { OtherProcessRuns, PROGRESS_FILE, ProgressFiles } from './liveFolder';
import type { ProfilerServiceOptions } from './profilerService';
import { RunQueue } from './queue';
import { RunStore } from './store';
import { TimelineCache } from './timeline';

export interface ServiceCore {
  store: RunStore;
  /** the runs folder made and indexed; a call that needs it waits for it */
  ready: Promise<void>;
  spawn: SpawnEngine;
  bus: EventBus;
  queue: RunQueue;
  timelines: TimelineCache;
  /** the progress files of this service's runs, for pages another process serves */
  progress: ProgressFiles;
  /** other processes' runs in the runs folder, followed while anyone listens; undefined when not followed */
  otherRuns: OtherProcessRuns | undefined;
  /** a checked run id, once the runs folder is ready */
  runId: (v: unknown) => Promise<string>;
}

/**
 * The engine's nice value in a service that serves pages: below normal, above idle. The engine's
 * workers fill every core, and at equal priority the pages' replies wait behind them; the engine
 * still gets every cycle the service does not use.
 */
export const BACKGROUND_ENGINE_NICENESS = 10;

export function createServiceCore(options: ProfilerServiceOptions): ServiceCore {
  const store = new RunStore(resolve(options.runsDir));
  const ready = store.init();
  // a runs folder that cannot be made fails the calls that need it, not the process (info needs none)
  ready.catch(() => undefined);
  const spawn = options.spawnEngine ?? (() => forkEngine());
  const bus = new EventBus();
  const timelines = new TimelineCache();
  const progress = new ProgressFiles((id) => store.file(id, PROGRESS_FILE), store.runsDir);
  const queue = new RunQueue({
    store, spawn, emit: (e) => {
      progress.note(e);
      bus.emit(e);
    },
    readRssBytes: options.readRssBytes, openEventStream: options.openEventStream,
    engineTimeoutMs: options.engineTimeoutMs,
    engineNiceness: options.engineNiceness ?? (options.servesPages ? BACKGROUND_ENGINE_NICENESS : undefined),
    onEnded: (run) => {
      if (run.timeline && run.recordedEverything) timelines.adopt(run.id, run.timeline.settled());
    },
  });
  const runId = async (v: unknown): Promise<string> => {
    const id = assertRunId(v);
    await ready;
    return id;
  };
  return { store, ready, spawn, bus, queue, timelines, progress, otherRuns: followOtherRuns(options, store, ready, bus, timelines), runId };
}

/** Another process's runs are followed where pages are served, unless the options say otherwise. */
function followOtherRuns(options: ProfilerServiceOptions, store: RunStore, ready: Promise<void>, bus: EventBus, timelines: TimelineCache): OtherProcessRuns | undefined {
  const asked = options.otherProcessRuns ?? options.servesPages === true;
  if (asked === false) return undefined;
  return new OtherProcessRuns({
    store, ready, emit: (e) => bus.emit(e), listened: () => bus.hasListeners(), onEnded: (id) => timelines.forget(id),
  }, asked === true ? {} : asked);
}

/**
 * Entry of one engine pool worker (a worker_thread of the engine process): its own TensorFlow.js
 * backend, its own recorder lane, and the electrodes the main thread hands it. It computes its share
 * of the occupancy's parts, fits its electrodes on the merged occupancy and keeps their device
 * copies until released; for a predict it says what series' bound proves for its electrodes' marks
 * when the plan asks, then computes the terms of the plan it is given and streams each block back
 * as it is computed; the main thread adds them up in a fixed order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Dataset } from '../../../shared/dataset';
import { serializeError } from '../../../shared/errors';
import type { TraceRecord } from '../../../shared/events';
import { ELECTRODE_SPAN } from '../../../shared/traceSpans';
import type { EncodingModel, FittedElectrode, TermReader } from '../../engine';
import { Recorder } from '../../recorder';
import { WORKER_TID_BASE, type DecodingShare, type FromWorker, type TermBlock, type ToWorker, type WorkerInit, type WorkerProfile } from './poolProtocol';
import { releaseTerms, TermRing, type TermRelease } from './termRing';

const engine = await import('../../engine');
const init = workerData as WorkerInit;
const port = parentPort!;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

const rec = new Recorder({
  proc: 'engine',
  tid: WORKER_TID_BASE + init.worker,
  laneName: `worker ${init.worker}`,
  originNs: init.originNs,
  disabled: !init.trace,
  onBatch: (records: TraceRecord[]) => post({ type: 'trace', records }),
});

const MB = 1024 * 1024;

/** this worker's tensors, on a counter track of its own, after each electrode it fits or decodes */
function sampleTensors(): void {
  const m = engine.engineMemory();
  rec.counter(`worker ${init.worker} tensors`, { count: m.numTensors, MB: Math.round((m.numBytes / MB) * 1000) / 1000 });
}

const datasets = new Map<number, Dataset>();
/** fitted models by the call that fitted them, with the dataset they were fitted on */
const models = new Map<number, { model: EncodingModel; dataset: Dataset }>();

async function profiled<T>(on: boolean, fn: () => Promise<T>): Promise<{ result: T; profile?: WorkerProfile }> {
  if (!on) return { result: await fn() };
  const p = await engine.profileKernels(fn);
  return { result: p.result, profile: { kernels: p.kernels, peakBytes: p.peakBytes } };
}

async function occupancy(message: Extract<ToWorker, { type: 'occupancy' }>): Promise<void> {
  const dataset = datasets.get(message.datasetId)!;
  const { result: parts, profile } = await profiled(message.profile, () => engine.occupancyParts(dataset, message.parts, rec, message.options));
  rec.flush();
  post({ type: 'occupancy-parts', call: message.call, parts, profile }, parts.flatMap((p) => [p.max.buffer as ArrayBuffer, p.sum.buffer as ArrayBuffer]));
}

async function fit(message: Extract<ToWorker, { type: 'fit' }>): Promise<void> {
  const { call, datasetId, electrodes, options, profile } = message;
  const dataset = datasets.get(datasetId)!;
  const { result, profile: prof } = await profiled(profile, async () => {
    const ctx = await engine.prepareFit(dataset, rec, options, message.logOccupancy);
    const tensors: Parameters<typeof engine.fitElectrodesAt>[2] = [];
    let fitted: FittedElectrode[];
    try {
      // the share's ground-process columns read back once, as the main thread's fit reads them
      fitted = await engine.fitElectrodesAt(ctx, electrodes, tensors, sampleTensors);
    } catch (err) {
      for (const t of tensors) t.dispose();
      throw err;
    }
    return { ctx, fitted, tensors };
  });
  const model = engine.encodingModelOf(result.ctx, result.fitted, new Float64Array(result.ctx.nBins), result.tensors);
  models.set(call, { model, dataset });
  const summaries = electrodes.map((e) => {
    const f = result.fitted[e]!;
    return { electrode: e, nEnc: f.nEnc, meanRate: f.meanRate, groundProcessIntensity: f.groundProcessIntensity };
  });
  rec.flush();
  post({
    type: 'fitted', call, occupancy: result.ctx.occupancy, electrodes: summaries, profile: prof,
    tensors: engine.engineMemory().numTensors, modelTensors: result.tensors.length,
  });
}

/** The fitted dataset with a local likelihood call's grid and each electrode's decoding share in place. */
function callDataset(base: Dataset, time: Float64Array, shares: DecodingShare[]): Dataset {
  const electrodes = base.electrodes.slice();
  for (const s of shares) {
    electrodes[s.electrode] = { ...base.electrodes[s.electrode]!, decodingSpikeTimes: s.times, decodingFeatures: s.features };
  }
  return { ...base, time, electrodes };
}

/**
 * The terms as an array that owns its whole buffer, to transfer: the backend's read is already a
 * fresh copy of that size, and a second copy of tens of millions of terms is not free. Anything
 * else, a view into a larger buffer such as a backend's heap, is copied.
 */
function ownedArray(values: Float32Array): Float32Array {
  return values.byteOffset === 0 && values.byteLength === values.buffer.byteLength && values.buffer instanceof ArrayBuffer ? values : values.slice();
}

/** blocks a predict's ring holds at once, fewer where 16 blocks would pass RING_MAX_BYTES */
const RING_SLOTS = 16;
/** blocks of terms per message, at most, and never more than a quarter of the ring's slots, so blocks waiting to be sent leave it room */
const TERM_BATCH = 4;
/** the most a worker's ring may hold: larger blocks (a large --block-size on many bins) go as fresh arrays */
const RING_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_BLOCK_ROWS = 100;
let ring: TermRing | undefined;

/** The term ring for blocks of this many floats, made larger when a call needs it; none past RING_MAX_BYTES. */
function ringFor(blockFloats: number): TermRing | undefined {
  const slots = Math.min(RING_SLOTS, Math.floor(RING_MAX_BYTES / (blockFloats * Float32Array.BYTES_PER_ELEMENT)));
  if (slots < 2) return undefined;
  if (!ring || ring.slotFloats < blockFloats || ring.slots < slots) ring = new TermRing(slots, blockFloats);
  ring.reset();
  return ring;
}

/** What series' bound proves for the asks' marks: facts of the electrodes this worker fitted, which the main thread's plan weighs. */
function reach(message: Extract<ToWorker, { type: 'reach' }>): void {
  const held = models.get(message.model)!;
  post({ type: 'reached', call: message.call, reaches: message.asks.map((ask) => engine.seriesReachOf(held.model, ask)) });
}

/** The planned electrodes' terms, each under the strategy its plan names: the worker runs the plan and chooses nothing. */
async function predict(message: Extract<ToWorker, { type: 'predict' }>): Promise<void> {
  const { call, electrodes, options } = message;
  const held = models.get(message.model)!;
  const termRing = ringFor(Math.max(options.blockSize || 0, DEFAULT_BLOCK_ROWS) * held.model.nBins);
  // blocks read into the ring, and the slot each took
  const inRing = new WeakMap<Float32Array, TermRelease>();
  const batch = termRing ? Math.max(1, Math.min(TERM_BATCH, Math.floor(termRing.slots / 4))) : 1;
  const read: TermReader = async (block) => {
    const taken = termRing?.take(block.size) ?? null;
    if (taken && engine.copyFloat32Into(block, taken.view)) {
      inRing.set(taken.view, taken.release);
      return taken.view;
    }
    if (taken) releaseTerms(taken.release);
    return (await block.data()) as Float32Array;
  };
  const { profile } = await profiled(message.profile, async () => {
    for (const planned of electrodes) {
      const e = planned.electrode;
      // blocks wait here until TERM_BATCH of them (or the electrode's end) go in one message
      let blocks: TermBlock[] = [];
      let transfer: ArrayBuffer[] = [];
      const send = (done: boolean): void => {
        post({ type: 'terms', call, electrode: e, blocks, done }, transfer);
        [blocks, transfer] = [[], []];
      };
      await rec.span(ELECTRODE_SPAN, () =>
        engine.electrodeTerms(held.model, planned, options, rec, (start, values) => {
          const release = inRing.get(values);
          if (release) blocks.push({ start, values, release });
          else {
            const own = ownedArray(values);
            blocks.push({ start, values: own });
            transfer.push(own.buffer as ArrayBuffer);
          }
          if (blocks.length >= batch) send(false);
        }, read), engine.electrodeSpanArgs(held.model, planned));
      sampleTensors();
      send(true);
    }
  });
  rec.flush();
  post({ type: 'predicted', call, profile, tensors: engine.engineMemory().numTensors });
}

async function local(message: Extract<ToWorker, { type: 'local' }>): Promise<void> {
  const { call, shares } = message;
  const held = models.get(message.model)!;
  const dataset = callDataset(held.dataset, message.time, shares);
  await engine.localTerms(held.model, dataset, rec, shares.map((s) => s.electrode), (terms) => {
    const transfer = [terms.spikeTerms.buffer as ArrayBuffer, ...(terms.ground ? [terms.ground.buffer as ArrayBuffer] : [])];
    post({ type: 'local-electrode', call, terms }, transfer);
  });
  rec.flush();
  post({ type: 'local-done', call });
}

async function handle(message: ToWorker): Promise<void> {
  switch (message.type) {
    case 'dataset':
      datasets.clear();
      datasets.set(message.datasetId, message.dataset);
      return;
    case 'occupancy':
      return occupancy(message);
    case 'fit':
      return fit(message);
    case 'reach':
      return reach(message);
    case 'predict':
      return predict(message);
    case 'local':
      return local(message);
    case 'release': {
      models.get(message.model)?.model.dispose();
      models.delete(message.model);
      post({ type: 'released', call: message.call, tensors: engine.engineMemory().numTensors });
    }
  }
}

// one message at a time, in order: a predict never starts before the fit it uses has finished
let queue = Promise.resolve();
port.on('message', (message: ToWorker) => {
  queue = queue.then(() => handle(message)).catch((e: unknown) => {
    rec.flush();
    post({ type: 'failed', call: 'call' in message ? message.call : -1, error: serializeError(e) });
  });
});

const backend = await engine.initBackend(init.backend);
post({ type: 'ready', backend });

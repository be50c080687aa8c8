/**
 * Shards of a run (`--shard I/N`, one SLURM array task each): which electrodes a shard computes.
 * Electrodes are independent until their terms are summed, so each shard computes its own share and
 * `kde-profiler merge` adds the shards up. A split depends only on the electrodes' spike counts and
 * the spec, so every task of an array, on whatever machine, finds the same split; every electrode
 * lands in exactly one shard.
 */
import type { ShardSpec, ShardSplit } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import type { ShardInfo } from '../../../shared/report';
import { INSTANT } from '../../../shared/traceInstants';

/**
 * Instants a shard run leaves in its trace for the merge: the wall clock at one moment of the run
 * clock (shards on different machines share no monotonic clock, only NTP time), and the engine
 * process's CPU time at the end.
 */
export const SHARD_CLOCK_INSTANT = INSTANT.shardWallClock;
export const SHARD_CPU_INSTANT = INSTANT.shardCpuTime;

/** what an electrode costs to fit and predict, as the split weighs it: its encoding plus decoding spikes */
export function electrodeSpikes(dataset: Dataset): number[] {
  return dataset.electrodes.map((e) => e.encodingSpikeTimes.length + e.decodingSpikeTimes.length);
}

function roundRobin(nElectrodes: number, count: number): number[][] {
  const shards: number[][] = Array.from({ length: count }, () => []);
  for (let e = 0; e < nElectrodes; e++) shards[e % count]!.push(e);
  return shards;
}

/**
 * Largest electrode first into the lightest shard. Electrodes with equal counts go in electrode
 * order; between equally loaded shards the one holding fewer electrodes wins, then the lower
 * index, so electrodes without spikes still spread over empty shards and nothing depends on sort
 * stability.
 */
function bySpikes(spikes: readonly number[], count: number): number[][] {
  const order = spikes.map((_, e) => e).sort((a, b) => spikes[b]! - spikes[a]! || a - b);
  const shards: number[][] = Array.from({ length: count }, () => []);
  const load = new Array<number>(count).fill(0);
  for (const e of order) {
    let best = 0;
    for (let s = 1; s < count; s++) {
      if (load[s]! < load[best]! || (load[s] === load[best] && shards[s]!.length < shards[best]!.length)) best = s;
    }
    shards[best]!.push(e);
    load[best]! += spikes[e]!;
  }
  // within a shard, electrodes keep the dataset's order (the order the engine and the merge sum them in)
  for (const shard of shards) shard.sort((a, b) => a - b);
  return shards;
}

/** Every shard's electrodes (indices into the dataset), shard by shard. */
export function splitElectrodes(spikes: readonly number[], count: number, by: ShardSplit): number[][] {
  if (!Number.isInteger(count) || count < 1) throw new AppError('BAD_ARGUMENT', `shard count must be a positive integer, got ${count}.`, { key: 'shard.count' });
  return by === 'spikes' ? bySpikes(spikes, count) : roundRobin(spikes.length, count);
}

export interface DatasetShard {
  /** the dataset with this shard's electrodes only */
  dataset: Dataset;
  info: ShardInfo;
}

function refuseEmptyShard(spec: ShardSpec, nElectrodes: number): never {
  throw new AppError('BAD_ARGUMENT',
    `--shard ${spec.index}/${spec.count}: the dataset has ${nElectrodes} electrode${nElectrodes === 1 ? '' : 's'}, so shard ${spec.index} of ${spec.count} would compute none; ` +
    `use at most ${nElectrodes} shards.`, { key: 'shard.count', value: spec.count });
}

/**
 * The share of the dataset one shard computes. Positions, grid and parameters stay whole (every
 * electrode's terms need them); the expected outputs a file may carry are for all electrodes, so a
 * shard has nothing to compare them with and leaves them out.
 */
export function shardOf(dataset: Dataset, spec: ShardSpec): DatasetShard {
  const n = dataset.electrodes.length;
  if (spec.count > n) refuseEmptyShard(spec, n);
  const mine = splitElectrodes(electrodeSpikes(dataset), spec.count, spec.by)[spec.index] ?? [];
  if (mine.length === 0) refuseEmptyShard(spec, n);
  const electrodes = mine.map((e) => dataset.electrodes[e]!);
  const info: ShardInfo = { index: spec.index, count: spec.count, by: spec.by, electrodes: electrodes.map((e) => e.name) };
  const { expected, ...rest } = dataset;
  const note = `shard ${spec.index}/${spec.count} (${spec.by}): ${mine.length} of ${n} electrodes` +
    (expected ? '; the expected outputs in the file cover all electrodes and are not compared' : '');
  return { dataset: { ...rest, electrodes, notes: [...dataset.notes, note] }, info };
}

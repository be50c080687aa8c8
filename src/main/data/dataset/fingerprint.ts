/**
 * The dataset's fingerprint: SHA-256 over everything the likelihood is computed from — each
 * electrode's name, spike times and marks, the positions (with the training mask and the decoding
 * positions where the file has them), the time grid, the bin centres, and the kernel widths. The
 * block size, tiles, strategy and backend change how the likelihood is computed, not what it is,
 * so they stay out: shards of one run, and the unsharded run they stand for, share one fingerprint.
 * The file's path and name stay out too (the same data under another path is the same data).
 *
 * Every field goes in with a tag, a type and a length, so no two different datasets can feed the
 * hash the same bytes.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Dataset } from '../../../shared/dataset';

/** names the layout below; a change to it changes every fingerprint, on purpose */
const LAYOUT = 'kde-profiler dataset fingerprint 1';
export const FINGERPRINT_PREFIX = 'sha256:';

const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** little-endian bytes of the values: a view on little-endian hosts, a swapped copy elsewhere */
function littleEndian(values: Float64Array): Uint8Array {
  if (HOST_LITTLE) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new DataView(new ArrayBuffer(values.byteLength));
  values.forEach((v, i) => out.setFloat64(i * 8, v, true));
  return new Uint8Array(out.buffer);
}

class FieldHash {
  private readonly hash: Hash = createHash('sha256');

  constructor() {
    this.text('layout', LAYOUT);
  }

  private head(tag: string, type: string, length: number): void {
    const head = Buffer.alloc(8);
    head.writeBigUInt64LE(BigInt(length));
    this.hash.update(`${tag}\0${type}\0`);
    this.hash.update(head);
  }

  text(tag: string, value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.head(tag, 'utf8', bytes.length);
    this.hash.update(bytes);
  }

  numbers(tag: string, values: Float64Array | readonly number[]): void {
    const array = values instanceof Float64Array ? values : Float64Array.from(values);
    this.head(tag, 'f64le', array.length);
    this.hash.update(littleEndian(array));
  }

  bytes(tag: string, values: Uint8Array): void {
    this.head(tag, 'u8', values.length);
    this.hash.update(values);
  }

  /** an optional field: present and absent hash differently */
  absent(tag: string): void {
    this.head(tag, 'none', 0);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

function positionStdOf(dataset: Dataset): number[] {
  const std = dataset.params.positionStd;
  // a scalar is that width in every position dimension: both spellings describe one kernel
  return Array.isArray(std) ? std : new Array<number>(dataset.positionDims).fill(std);
}

function hashPositions(h: FieldHash, d: Dataset): void {
  h.numbers('positionDims', [d.positionDims]);
  h.numbers('positionTime', d.positionTime);
  h.numbers('position', d.position);
  if (d.isTraining) h.bytes('isTraining', d.isTraining);
  else h.absent('isTraining');
  if (d.decodingPositionTime && d.decodingPosition) {
    h.numbers('decodingPositionTime', d.decodingPositionTime);
    h.numbers('decodingPosition', d.decodingPosition);
  } else {
    h.absent('decodingPosition');
  }
}

function hashParams(h: FieldHash, d: Dataset): void {
  h.numbers('positionStd', positionStdOf(d));
  // a scalar mark width is expanded per electrode at predict time, a list is used as is: not the same parameter
  const w = d.params.waveformStd;
  if (Array.isArray(w)) h.numbers('waveformStd[]', w);
  else h.numbers('waveformStd', [w]);
}

/** `sha256:<64 hex digits>` of the whole dataset (before any shard split) */
export function datasetFingerprint(dataset: Dataset): string {
  const h = new FieldHash();
  hashPositions(h, dataset);
  h.numbers('time', dataset.time);
  h.numbers('placeBinCenters', dataset.placeBinCenters);
  hashParams(h, dataset);
  h.numbers('electrodes', [dataset.electrodes.length]);
  for (const e of dataset.electrodes) {
    h.text('electrode', e.name);
    h.numbers('nFeatures', [e.nFeatures]);
    h.numbers('encodingSpikeTimes', e.encodingSpikeTimes);
    h.numbers('encodingFeatures', e.encodingFeatures);
    h.numbers('decodingSpikeTimes', e.decodingSpikeTimes);
    h.numbers('decodingFeatures', e.decodingFeatures);
  }
  return `${FINGERPRINT_PREFIX}${h.digest()}`;
}

/**
 * Test helpers: the float64 reference posterior fixture (test/fixtures/posterior_reference.npz,
 * written by scripts/make-posterior-fixtures.py) and the golden protocols' inputs, read once.
 */
import { fileURLToPath } from 'node:url';
import { buildPlaceGrid1d, npyAsFloat64, openNpz, type NpzFile } from '../../data';
import type { PlaceGrid } from './grid';
import { buildStateSpace } from './stateSpace';
import type { StateSpace, StateSpaceOptions } from './stateSpaceTypes';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));

export type ReferenceCase = 'decoder' | 'detector' | 'decoder_gaps' | 'detector_gaps';
export const CASES: ReferenceCase[] = ['decoder', 'detector', 'decoder_gaps', 'detector_gaps'];

const opened = new Map<string, Promise<NpzFile>>();
function npz(name: string): Promise<NpzFile> {
  if (!opened.has(name)) opened.set(name, openNpz(FIXTURES + name));
  return opened.get(name)!;
}

export interface Loaded {
  data: Float64Array;
  shape: number[];
}

export async function readArray(file: string, key: string): Promise<Loaded> {
  const array = await (await npz(file)).read(key);
  const data = npyAsFloat64(array);
  if (!data) throw new Error(`${file}:${key} is not numeric`);
  return { data, shape: array.shape };
}

export const reference = (key: string): Promise<Loaded> => readArray('posterior_reference.npz', key);

export function modelOf(name: ReferenceCase): 'decoder' | 'detector' {
  return name.startsWith('decoder') ? 'decoder' : 'detector';
}

/** The fit positions of §14's protocols; `_gaps` moves positions in (60, 72) to 72. */
export async function fitPositions(name: ReferenceCase): Promise<Float64Array> {
  const model = modelOf(name);
  const file = model === 'decoder' ? 'nld_clusterless_decoder_inputs.npz' : 'nld_nonlocal_detector_inputs.npz';
  const { data } = await readArray(file, 'position');
  const positions = Float64Array.from(model === 'decoder' ? data : data.subarray(0, 5000));
  if (name.endsWith('_gaps')) positions.forEach((v, i) => v > 60 && v < 72 && (positions[i] = 72));
  return positions;
}

/** The grid the data loaders build from the fit positions (place_bin_size 2, as NLD's default). */
export async function gridOf(name: ReferenceCase): Promise<PlaceGrid> {
  const grid = buildPlaceGrid1d(await fitPositions(name), 2.0);
  return { centers: grid.centers, interior: Uint8Array.from(grid.isInterior, (v) => (v ? 1 : 0)) };
}

export async function spaceOf(name: ReferenceCase, options?: StateSpaceOptions): Promise<StateSpace> {
  return buildStateSpace(modelOf(name), await gridOf(name), options);
}

/** The reference's log likelihood cast to float32, as upstream assembles it. */
export async function logLikelihoodOf(name: ReferenceCase): Promise<{ ll: Float32Array; rows: number }> {
  const { data, shape } = await reference(`${name}_log_likelihood`);
  return { ll: Float32Array.from(data), rows: shape[0]! };
}

/** max |a − b|, NaN in both counting as equal; Infinity when only one side is NaN. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`lengths differ: ${a.length} and ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) !== Number.isNaN(y)) return Infinity;
      continue;
    }
    worst = Math.max(worst, Math.abs(x - y));
  }
  return worst;
}

/** The prediction window's times and every electrode's spike times of a golden protocol (§14). */
export async function predictionInputs(model: 'decoder' | 'detector'): Promise<{ time: Float64Array; spikes: Float64Array[] }> {
  const file = model === 'decoder' ? 'nld_clusterless_decoder_inputs.npz' : 'nld_nonlocal_detector_inputs.npz';
  const spikes: Float64Array[] = [];
  for (let e = 0; e < 4; e++) spikes.push((await readArray(file, `spike_times_${e}`)).data);
  return { time: (await reference(`golden_${model}_time`)).data, spikes };
}

/** Columns [from, to) of a row-major rows × width array, as one rows × (to − from) array. */
export function columns(data: Float64Array, rows: number, width: number, from: number, to: number): Float32Array {
  const out = new Float32Array(rows * (to - from));
  for (let t = 0; t < rows; t++) out.set(data.subarray(t * width + from, t * width + to), t * (to - from));
  return out;
}

/**
 * The decoding grid, place grid and kernel parameters of an NWB import, from the recipe: position
 * timestamps, uniform Δt bins or an explicit array; a grid built from place_bin_size or read from
 * the file; widths from the recipe or the defaults (each choice written to the notes).
 */
import type { KdeParams } from '../../../shared/dataset';
import { count, num, type ValidationFindings } from '../validation';
import { buildGrid, checkTimeGrid, type GridResult, type PositionSeries } from '../clusterlessNpz';
import { DEFAULT_BLOCK_SIZE, DEFAULT_POSITION_STD, DEFAULT_WAVEFORM_STD } from '../../engine/model';
import { getDataset, type H5Handle } from './h5';
import { datasetMeta, readRows } from './h5read';
import type { BinChoice, GridChoice, NwbRecipe } from './recipe';

/** more decoding rows than this is a unit mistake (e.g. Δt in ms given as seconds) */
const MAX_UNIFORM_BINS = 50_000_000;

function readNumbers(h: H5Handle, path: string, f: ValidationFindings): { data: Float64Array; shape: number[]; descr: string } | null {
  const ds = getDataset(h, path);
  if (!ds) {
    f.error('E001', `'${path}' not found in ${h.file}.`, { key: path });
    return null;
  }
  const meta = datasetMeta(h, ds);
  return { data: readRows(h, ds), shape: meta.shape, descr: `<${meta.dtype}` };
}

export function decodingBins(
  files: H5Handle[], bins: BinChoice, pos: PositionSeries, decPos: PositionSeries | null, f: ValidationFindings, notes: string[],
): Float64Array | null {
  if (bins.kind === 'position') {
    notes.push(`decoding rows are the ${decPos ? 'decoding position' : 'position'} timestamps`);
    return (decPos ?? pos).time;
  }
  if (bins.kind === 'uniform') {
    const source = (decPos ?? pos).time;
    const start = bins.start ?? source[0] ?? 0;
    const stop = bins.stop ?? source[source.length - 1] ?? 0;
    const n = Math.floor((stop - start) / bins.stepS + 1e-9) + 1;
    if (!(n >= 1) || n > MAX_UNIFORM_BINS) {
      f.error('E050', `uniform bins of ${num(bins.stepS)} s over [${num(start)}, ${num(stop)}] s would make ${count(Math.max(0, n))} rows (1 to ${count(MAX_UNIFORM_BINS)} allowed); check the bin width and its unit (seconds).`,
        { key: 'bins.stepS' });
      return null;
    }
    notes.push(`decoding rows: ${count(n)} uniform bins of ${num(bins.stepS * 1000)} ms from ${num(start)} s`);
    return Float64Array.from({ length: n }, (_, i) => start + i * bins.stepS);
  }
  const h = files[bins.file]!;
  const a = readNumbers(h, bins.path, f);
  if (!a) return null;
  if (!checkTimeGrid(f, { key: bins.path, ...a })) return null;
  notes.push(bins.edges
    ? `decoding rows are the ${count(a.data.length)} bin edges of ${bins.path}: rows 0..${count(a.data.length - 2)} are its bins, the last row is structurally spike-free (kde-spec §4.4)`
    : `decoding rows from ${h.file}:${bins.path}`);
  return a.data;
}

export function placeGrid(
  files: H5Handle[], grid: GridChoice | undefined, pos: PositionSeries, placeBinSize: number | undefined, f: ValidationFindings, notes: string[],
): GridResult | null {
  if (!grid || grid.kind === 'build') {
    const size = grid?.kind === 'build' ? grid.placeBinSize : placeBinSize;
    return buildGrid(f, { position: pos.values, positionDims: pos.dims, placeBinSize: size }, notes);
  }
  const h = files[grid.file]!;
  const centers = readNumbers(h, grid.centers, f);
  if (!centers) return null;
  const cols = centers.shape.length === 1 ? 1 : centers.shape[1];
  if (cols !== pos.dims || centers.shape.length > 2) {
    f.error('E011', `'${grid.centers}' has shape (${centers.shape.join(', ')}) but position has ${pos.dims} dimension(s); expected (P, ${pos.dims}).`, { key: grid.centers });
    return null;
  }
  if (!grid.interior) {
    notes.push(`place grid from ${h.file}:${grid.centers}, all ${count(centers.data.length / pos.dims)} bins interior`);
    return { centers: centers.data };
  }
  const mask = readNumbers(h, grid.interior, f);
  if (!mask) return null;
  const nBins = centers.data.length / pos.dims;
  if (mask.data.length !== nBins) {
    f.error('E010', `'${grid.interior}' has ${count(mask.data.length)} entries but '${grid.centers}' has ${count(nBins)} bins; they must be equal.`, { key: grid.interior });
    return null;
  }
  const out: number[] = [];
  for (let p = 0; p < nBins; p++) if (mask.data[p] !== 0) for (let d = 0; d < pos.dims; d++) out.push(centers.data[p * pos.dims + d]!);
  notes.push(`place grid from ${h.file}:${grid.centers} + ${grid.interior}: ${count(out.length / pos.dims)} of ${count(nBins)} bins interior`);
  return { centers: Float64Array.from(out) };
}

export function recipeParams(recipe: NwbRecipe, notes: string[]): KdeParams {
  const p = recipe.params ?? {};
  const pick = <T>(name: string, v: T | undefined, fallback: T): T => {
    notes.push(v === undefined ? `${name} ${JSON.stringify(fallback)} (default)` : `${name} ${JSON.stringify(v)} from the recipe`);
    return v ?? fallback;
  };
  const params: KdeParams = {
    positionStd: pick('position_std', p.positionStd, DEFAULT_POSITION_STD),
    waveformStd: pick('waveform_std', p.waveformStd, DEFAULT_WAVEFORM_STD),
    blockSize: p.blockSize ?? DEFAULT_BLOCK_SIZE,
  };
  if (p.placeBinSize !== undefined) params.placeBinSize = p.placeBinSize;
  return params;
}

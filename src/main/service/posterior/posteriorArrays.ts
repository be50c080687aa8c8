/**
 * The posterior's .npy files opened for reading rows: each a float array time × columns whose
 * header is checked once, then read a bounded chunk of rows at a time (through the likelihood
 * room's reader), so a view of a few rows reads a few rows whatever the file's length.
 */
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { openUntrustedFile } from '../../data';
import { forEachRowChunk, likelihoodLayout, type LikelihoodLayout } from '../likelihood';

export type RowVisitor = (row: number, values: Float32Array | Float64Array, offset: number) => void;

export interface OpenArray {
  handle: FileHandle;
  layout: LikelihoodLayout;
}

/** Opens one of the run's posterior files; NOT_FOUND says the decode stopped before writing it. */
export async function openArray(runDir: string, relPath: string, runId: string, vector = false): Promise<OpenArray> {
  const file = join(runDir, relPath);
  let handle: FileHandle;
  try {
    ({ handle } = await openUntrustedFile(file, { fix: 'the run\'s posterior is not one the decode wrote; delete the run or decode again' }));
  } catch (e) {
    if ((e as AppError).code === 'NOT_FOUND') {
      throw new AppError('NOT_FOUND', `run ${runId} has no ${relPath}: the decode stopped before its posterior was written; decode again.`, { file });
    }
    throw e;
  }
  try {
    return { handle, layout: await likelihoodLayout(handle, file, { acceptVector: vector }) };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** Calls visit for each row of [start, end), the row's values at values[offset …]. */
export async function visitRows(a: OpenArray, start: number, end: number, visit: RowVisitor, chunkBytes: number): Promise<void> {
  const width = a.layout.nBins;
  await forEachRowChunk(a.handle, a.layout, start, end, (first, count, values) => {
    for (let i = 0; i < count; i++) visit(first + i, values, i * width);
  }, chunkBytes);
}

/** One row of the file, copied out as float64. */
export async function readRow(a: OpenArray, row: number): Promise<Float64Array> {
  const out = new Float64Array(a.layout.nBins);
  await visitRows(a, row, row + 1, (_r, values, offset) => out.set(values.subarray(offset, offset + out.length)), a.layout.nBins * a.layout.itemBytes);
  return out;
}

/** The files a view opened, closed however it ends. */
export class OpenArrays {
  private readonly opened: OpenArray[] = [];

  async open(runDir: string, relPath: string, runId: string, vector = false): Promise<OpenArray> {
    const a = await openArray(runDir, relPath, runId, vector);
    this.opened.push(a);
    return a;
  }

  async closeAll(): Promise<void> {
    for (const a of this.opened.splice(0)) await a.handle.close();
  }
}

export function meanOf(values: ArrayLike<number | null>, from: number, to: number, stride = 1, offset = 0): number {
  let s = 0;
  let c = 0;
  for (let i = from; i < to; i++) {
    const v = values[i * stride + offset];
    if (typeof v === 'number' && Number.isFinite(v)) {
      s += v;
      c++;
    }
  }
  return c > 0 ? s / c : Number.NaN;
}

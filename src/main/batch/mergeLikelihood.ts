/**
 * One likelihood from the shards' likelihoods: each shard's file holds the sum of its electrodes'
 * terms (its share of the ground term −Σ_e Λ_e included), so the whole run's likelihood is their
 * sum. It is added in float64 in shard index order, whatever order the shards were given or
 * finished in, a bounded block of rows at a time (a decode's file runs to gigabytes), and written
 * as float32 .npy like any run's likelihood, through a temporary file renamed at the end. The
 * agreement between strategies is then measured on the merged likelihoods.
 */
import { copyFile, mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { Agreement, AgreementMatrix, Report } from '../../shared/report';
import { agreementMatrix, compareArrays } from '../analysis';
import { float32Bytes, npyHeader, parseNpy } from '../data';
import { LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath } from '../engineProtocol';
import { forEachRowChunk, likelihoodLayout, type LikelihoodLayout, openLikelihood, ROW_CHUNK_BYTES } from '../service';
import { shardName, type ShardRun } from './shardRuns';

export interface LikelihoodPart {
  file: string;
  /** who made it, for messages: "shard 1/3 (run …)" */
  owner: string;
}

interface OpenPart {
  part: LikelihoodPart;
  handle: FileHandle;
  layout: LikelihoodLayout;
}

async function openParts(parts: readonly LikelihoodPart[]): Promise<OpenPart[]> {
  const handles: FileHandle[] = [];
  try {
    const opened: OpenPart[] = [];
    for (const part of parts) {
      const handle = await openLikelihood(part.file);
      if (!handle) {
        throw new AppError('NOT_FOUND', `${part.owner} has no ${part.file}: merge needs every shard's likelihood (run the shards with --save-likelihood).`, { file: part.file });
      }
      handles.push(handle);
      opened.push({ part, handle, layout: await likelihoodLayout(handle, part.file) });
    }
    return opened;
  } catch (e) {
    await Promise.all(handles.map((h) => h.close()));
    throw e;
  }
}

function checkShapes(parts: readonly OpenPart[]): { nTime: number; nBins: number } {
  const { nTime, nBins } = parts[0]!.layout;
  const odd = parts.find((p) => p.layout.nTime !== nTime || p.layout.nBins !== nBins);
  if (odd) {
    throw new AppError('BAD_ARGUMENT',
      `${odd.part.owner}: ${odd.part.file} is (${odd.layout.nTime}, ${odd.layout.nBins}), ${parts[0]!.part.owner}'s is (${nTime}, ${nBins}): ` +
      'the shards did not decode the same grid.', { file: odd.part.file });
  }
  return { nTime, nBins };
}

/** Writes the sum; returns how many of its values are not finite. */
async function writeSum(out: FileHandle, parts: readonly OpenPart[], nTime: number, nBins: number): Promise<number> {
  const head = npyHeader('<f4', [nTime, nBins]);
  await out.write(head, 0, head.length, 0);
  let position = head.length;
  let nonFinite = 0;
  const rowsPerBlock = Math.max(1, Math.floor(ROW_CHUNK_BYTES / Math.max(1, nBins * 8)));
  for (let r0 = 0; r0 < nTime; r0 += rowsPerBlock) {
    const r1 = Math.min(nTime, r0 + rowsPerBlock);
    const sum = new Float64Array((r1 - r0) * nBins);
    for (const p of parts) {
      await forEachRowChunk(p.handle, p.layout, r0, r1, (first, count, values) => {
        const at = (first - r0) * nBins;
        for (let i = 0; i < count * nBins; i++) sum[at + i]! += values[i]!;
      });
    }
    const values = Float32Array.from(sum);
    for (const v of values) if (!Number.isFinite(v)) nonFinite++;
    const bytes = float32Bytes(values);
    await out.write(bytes, 0, bytes.length, position);
    position += bytes.length;
  }
  return nonFinite;
}

export interface SummedLikelihood {
  nTime: number;
  nBins: number;
  /** values of the sum that are not finite */
  nonFinite: number;
}

/** Sums the parts, in the order given, into a float32 .npy at `outFile`. */
export async function sumLikelihoods(parts: readonly LikelihoodPart[], outFile: string): Promise<SummedLikelihood> {
  if (parts.length === 0) throw new AppError('BAD_ARGUMENT', `nothing to add up into ${outFile}.`, { file: outFile });
  const opened = await openParts(parts);
  const tmp = `${outFile}.${process.pid}.partial`;
  try {
    const shape = checkShapes(opened);
    const out = await open(tmp, 'w');
    let nonFinite: number;
    try {
      nonFinite = await writeSum(out, opened, shape.nTime, shape.nBins);
    } finally {
      await out.close();
    }
    await rename(tmp, outFile);
    return { ...shape, nonFinite };
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  } finally {
    await Promise.all(opened.map((o) => o.handle.close()));
  }
}

/** What the merge learned from the merged likelihoods. */
export interface MergedLikelihoods {
  /** relative path of each strategy's (and 'local') merged likelihood in the merged run's folder */
  files: Map<string, string>;
  /** non-finite values in each merged likelihood */
  nonFinite: Map<string, number>;
  agreementWithReference: Map<string, Agreement>;
  agreementMatrix?: AgreementMatrix;
}

/** a likelihood a report names lies in the run's likelihood folder; anything else is not read */
const LIKELIHOOD_FILE = /^likelihood\/[A-Za-z0-9_-]+\.npy$/;

function likelihoodFileOf(report: Report, name: string): string | undefined {
  const rel = name === 'local' ? report.local?.likelihoodFile : report.strategies.find((s) => s.strategy === name)?.likelihoodFile;
  return rel !== undefined && LIKELIHOOD_FILE.test(rel) ? rel : undefined;
}

/** The shards' files of one likelihood; undefined when a shard's strategy failed (the merged one fails with it). */
function partsOf(shards: readonly ShardRun[], name: string): LikelihoodPart[] | undefined {
  const parts: LikelihoodPart[] = [];
  for (const shard of shards) {
    const rel = likelihoodFileOf(shard.report, name);
    if (rel) {
      parts.push({ file: join(shard.dir, rel), owner: shardName(shard) });
      continue;
    }
    if (shard.report.strategies.find((s) => s.strategy === name)?.status === 'failed') return undefined;
    throw new AppError('NOT_FOUND', `${shardName(shard)} saved no likelihood for ${name} while other shards did: rerun it with --save-likelihood.`, { key: name });
  }
  return parts;
}

/** merged likelihoods read back to compare strategies only up to this many values in all */
const MAX_COMPARED_VALUES = 64 * 1024 * 1024;

async function agreementsOf(runDir: string, files: Map<string, string>, shape: { nTime: number; nBins: number }, merged: MergedLikelihoods): Promise<void> {
  const names = [...files.keys()].filter((n) => n !== 'local');
  if (names.length < 2 || names.length * shape.nTime * shape.nBins > MAX_COMPARED_VALUES) return;
  const values = new Map<string, Float64Array>();
  for (const n of names) values.set(n, parseNpy(new Uint8Array(await readFile(join(runDir, files.get(n)!)))).data as Float64Array);
  // the reference goes first: allclose treats the earlier entry as the reference side
  const order = [...names].sort((a, b) => Number(b === 'reference') - Number(a === 'reference'));
  merged.agreementMatrix = agreementMatrix(order.map((name) => ({ name, values: values.get(name)! })), shape.nTime, shape.nBins);
  const ref = values.get('reference');
  if (!ref) return;
  for (const n of names) if (n !== 'reference') merged.agreementWithReference.set(n, compareArrays(values.get(n)!, ref, shape.nTime, shape.nBins, 'reference'));
}

/**
 * Every likelihood the shards saved (each strategy's, the local one), summed in shard index order
 * into the merged run's folder with the axes beside them, and the strategies' agreement measured
 * on the sums.
 */
export async function mergeShardLikelihoods(runDir: string, shards: readonly ShardRun[]): Promise<MergedLikelihoods> {
  const merged: MergedLikelihoods = { files: new Map(), nonFinite: new Map(), agreementWithReference: new Map() };
  const first = shards[0]!.report;
  const names = [...first.strategies.map((s) => s.strategy as string), ...(first.local ? ['local'] : [])];
  let shape: { nTime: number; nBins: number } | undefined;
  for (const name of names) {
    if (!shards.some((s) => likelihoodFileOf(s.report, name))) continue;
    const parts = partsOf(shards, name);
    if (!parts) continue;
    await mkdir(join(runDir, LIKELIHOOD_DIR), { recursive: true });
    const rel = likelihoodRelPath(name);
    const sum = await sumLikelihoods(parts, join(runDir, rel));
    merged.files.set(name, rel);
    merged.nonFinite.set(name, sum.nonFinite);
    if (name !== 'local') shape = sum;
  }
  if (merged.files.size > 0) await copyFile(join(shards[0]!.dir, LIKELIHOOD_AXES_FILE), join(runDir, LIKELIHOOD_AXES_FILE)).catch(() => undefined);
  if (shape) await agreementsOf(runDir, merged.files, shape, merged);
  return merged;
}

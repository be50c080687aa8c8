/**
 * Files the CLI writes where a person said (`--out`): each is written whole to a temporary file
 * beside its target and renamed into place, so an earlier result stays as it was until the new one
 * is complete. A disk that fills up, a folder that cannot be written or a kill mid-copy leaves the
 * old file (or none), never half of one, and no temporary file behind. A link or a folder at the
 * target is refused: a write through a link would land wherever it points.
 */
import { link, lstat, rename, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../shared/errors';
import { temporaryBeside, writeFailureReason } from '../data';

/** Refuses a target that is a link or anything but a regular file; nothing there is fine. */
export async function checkOutputTarget(target: string): Promise<void> {
  let s;
  try {
    s = await lstat(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw writeError(target, e);
  }
  if (s.isSymbolicLink()) throw new AppError('BAD_ARGUMENT', `${target} is a symbolic link: a result is not written through a link; name a new file or remove the link.`, { file: basename(target) });
  if (!s.isFile()) throw new AppError('BAD_ARGUMENT', `${target} exists and is not a regular file: name a file to write.`, { file: basename(target) });
}

/** What a failed write says: the target, the system's reason, and that the earlier file is untouched. */
function writeError(target: string, e: unknown): AppError {
  if (e instanceof AppError) return e;
  return new AppError('IO', `${target} could not be written: ${writeFailureReason(e)}; whatever was there before is unchanged.`, { file: basename(target) });
}

/** A file written whole beside its target, not yet in place. */
interface StagedFile {
  /** renames it over the target */
  commit(): Promise<void>;
  /** removes it */
  discard(): Promise<void>;
}

/** Fills a temporary file beside `target` with `fill`; on failure removes it and says why. */
async function stage(target: string, fill: (tmp: string) => Promise<void>, replace = true): Promise<StagedFile> {
  await checkOutputTarget(target);
  const tmp = temporaryBeside(target);
  const discard = (): Promise<void> => rm(tmp, { force: true }).catch(() => undefined);
  try {
    await fill(tmp);
  } catch (e) {
    await discard();
    throw writeError(target, e);
  }
  const commit = async (): Promise<void> => {
    try {
      // a link fails on a name that exists, where rename would replace it: a file made meanwhile is kept
      if (replace) await rename(tmp, target);
      else await link(tmp, target);
    } catch (e) {
      await discard();
      throw writeError(target, e);
    }
    if (!replace) await discard();
  };
  return { commit, discard };
}

/** Writes `bytes` to `target` atomically; unless `replace`, a file already at `target` is kept and the write fails. */
export async function writeOutputFile(target: string, bytes: Uint8Array | string, replace = true): Promise<void> {
  await (await stage(target, (tmp) => writeFile(tmp, bytes, { flag: 'wx' }), replace)).commit();
}

/** The message of a run that completed but whose result could not be written where asked. */
export function notCopiedMessage(runId: string, e: unknown, where: string): string {
  const reason = e instanceof Error ? e.message : String(e);
  return `run ${runId} completed, but its result could not be written to --out: ${reason}\nthe complete result is in ${where}\n`;
}

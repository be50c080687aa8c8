/**
 * Why a write of the run store failed, said about the runs folder (the thing a person can change:
 * its permissions, its disk, or which folder to use) rather than about a temporary file inside it.
 */
import { AppError } from '../../../shared/errors';

const NOT_WRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** the two failures a person fixes at the runs folder itself */
export type StoreWriteProblem = 'not-writable' | 'disk-full';

/**
 * The errno behind a failed write. The trace writer (export/) already wraps its failures in an IO
 * error whose message keeps Node's "CODE: description" text, so that text is read too.
 */
export function errnoOf(e: unknown): string | undefined {
  if (e instanceof AppError) {
    if (e.code !== 'IO') return undefined;
    return /\b(E[A-Z]+): /.exec(e.message)?.[1];
  }
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An error about the runs folder itself, which remembers what went wrong with it. */
export class RunsFolderError extends AppError {
  constructor(readonly problem: StoreWriteProblem, message: string, runsDir: string, hint: string) {
    super('IO', message, { file: runsDir, hint });
  }
}

export function writeProblemOf(e: unknown): StoreWriteProblem | undefined {
  if (e instanceof RunsFolderError) return e.problem;
  const code = errnoOf(e);
  if (code === undefined) return undefined;
  if (NOT_WRITABLE_CODES.has(code)) return 'not-writable';
  if (DISK_FULL_CODES.has(code)) return 'disk-full';
  return undefined;
}

/**
 * A failed write as an error a person can act on: a runs folder that is not writable, or a full
 * disk, names the folder and what to do. Any other failure passes through unchanged.
 */
export function storeWriteError(e: unknown, runsDir: string): unknown {
  if (e instanceof RunsFolderError) return e;
  const problem = writeProblemOf(e);
  const code = errnoOf(e);
  if (problem === 'not-writable') {
    return new RunsFolderError(problem, `the runs folder ${runsDir} is not writable (${code}): choose another with --runs-dir or fix its permissions.`,
      runsDir, 'choose another runs folder with --runs-dir, or make this one writable');
  }
  if (problem === 'disk-full') {
    return new RunsFolderError(problem, `the disk holding the runs folder ${runsDir} is full (${code}): free space or choose another runs folder with --runs-dir.`,
      runsDir, 'free space on that disk, or choose another runs folder with --runs-dir');
  }
  return e;
}

/** Runs one write of the run store, turning its failure into storeWriteError's. */
export async function storeWrite<T>(runsDir: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw storeWriteError(e, runsDir);
  }
}

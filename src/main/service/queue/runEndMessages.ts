/**
 * What a run says when its folder let it down: at its start (the 'running' status could not be
 * saved) and at its end (report, trace or status could not be written). A runs folder that is not
 * writable, or a full disk, is said in the run store's words (storeWriteError).
 */
import type { RunStatus } from '../../../shared/events';
import { AppError, serializeError } from '../../../shared/errors';
import { RunsFolderError, storeWriteError } from '../store';

/** Why a run ended at its start: its 'running' status could not be saved in `runDir`. */
export function startNotRecordedError(e: unknown, runsDir: string, runDir: string): AppError {
  const stopped = 'The engine was stopped before the next run started.';
  const folderError = storeWriteError(e, runsDir);
  if (folderError instanceof RunsFolderError) return new AppError('IO', `${folderError.message} ${stopped}`, folderError.location);
  return new AppError('IO', `could not save the run's status in ${runDir} (${serializeError(e).message}): check that the runs folder exists and is writable. ${stopped}`, {
    file: runDir, hint: 'check that the runs folder exists and is writable',
  });
}

/** One line for everything a finished run could not write in `runDir` (on a full disk they all fail alike). */
export function unsavedFilesMessage(runDir: string, status: RunStatus, statusSaved: boolean, unsaved: readonly string[]): string {
  const what = unsaved.join('; ');
  if (statusSaved) return `could not write some of the run's files in ${runDir} (${what}); check that the runs folder is writable and has space.`;
  return `could not save the run's status in ${runDir} (${what}). The run is ${status} in this session only; check that the runs folder exists, is writable and has space.`;
}

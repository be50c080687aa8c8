/**
 * What a run says when its folder let it down: at its start (the 'running' status could not be
 * saved) and at its end (report, trace or status could not be written). A runs folder that is not
 * writable, or a full disk, is said in the run store's words (storeWriteError). Also what a run
 * whose engine stopped responding ends with.
 */
import type { RunStatus } from '../../../shared/events';
import { AppError, serializeError } from '../../../shared/errors';
import { RunsFolderError, storeWriteError } from '../store';
import { ENGINE_TIMEOUT_ENV } from './engineWatchdog';

/** Why a run ended at its start: its 'running' status could not be saved in `runDir`. */
export function startNotRecordedError(e: unknown, runsDir: string, runDir: string): AppError {
  const stopped = 'The engine was stopped before the next run started.';
  const folderError = storeWriteError(e, runsDir);
  if (folderError instanceof RunsFolderError) return new AppError('IO', `${folderError.message} ${stopped}`, folderError.location);
  return new AppError('IO', `could not save the run's status in ${runDir} (${serializeError(e).message}): check that the runs folder exists and is writable. ${stopped}`, {
    file: runDir, hint: 'check that the runs folder exists and is writable',
  });
}

/** Why a run failed whose engine said nothing (and, on Linux, used no CPU) for `silentMs`. */
export function engineStalledError(silentMs: number, pid: number | undefined): AppError {
  const process = pid === undefined ? 'the engine process' : `the engine process (pid ${pid})`;
  return new AppError('RUN_FAILED', `engine stopped responding: ${process} sent no heartbeat or progress for ${Math.round(silentMs / 1000)} s ` +
    '(stopped, or blocked); it was killed, and what the run recorded before is kept. ' +
    `If the machine is just slow, set ${ENGINE_TIMEOUT_ENV} to more seconds.`, { hint: `raise ${ENGINE_TIMEOUT_ENV} if the engine is only slow` });
}

/** One line for everything a finished run could not write in `runDir` (on a full disk they all fail alike). */
export function unsavedFilesMessage(runDir: string, status: RunStatus, statusSaved: boolean, unsaved: readonly string[]): string {
  const what = unsaved.join('; ');
  if (statusSaved) return `could not write some of the run's files in ${runDir} (${what}); check that the runs folder is writable and has space.`;
  return `could not save the run's status in ${runDir} (${what}). The run is ${status} in this session only; check that the runs folder exists, is writable and has space.`;
}

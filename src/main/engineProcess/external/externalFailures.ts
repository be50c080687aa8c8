/**
 * How an external engine's end reads to a lab: what happened and what to do next (the results
 * row and the log line name the engine),
 * from the child's exit, the profiler's reason for stopping it and the engine's own last words.
 */
import { AppError } from '../../../shared/errors';
import type { ChildEnd } from './childRun';
import { EXIT_UNAVAILABLE, type ExternalRecord } from './externalRecord';

export interface EndInputs {
  record: ExternalRecord;
  end: ChildEnd;
  timeoutS: number;
  outDir: string;
  /** argv[0]: what could not be started */
  program: string;
}

function failed(message: string): AppError {
  return new AppError('RUN_FAILED', message);
}

export function resultFailure(what: string): AppError {
  return failed(what);
}

function startHint(program: string): string {
  return /python/i.test(program)
    ? 'give the Python that has NumPy (and NLD) with --python PATH or KDE_PROFILER_PYTHON'
    : 'check the command and that the program is installed and executable';
}

/** Why the engine's run does not count, or undefined when it ended as the protocol says it should. */
export function endFailure(i: EndInputs): AppError | undefined {
  const { record, end } = i;
  switch (end.stoppedFor) {
    case 'spawn': return failed(`could not start ${i.program}: ${end.problem ?? 'unknown error'}; ${startHint(i.program)}`);
    case 'timeout': return failed(`ran past its ${i.timeoutS} s limit and was stopped; give a longer --engine-timeout, or a shorter file`);
    case 'protocol': return failed(`broke the external-engine protocol (docs/external-engines.md): ${end.problem ?? ''}; its files stay in ${i.outDir}`);
    case 'cancel': return failed('stopped by a cancel');
    default: break;
  }
  if (end.exitCode === EXIT_UNAVAILABLE) return failed(`cannot run on this machine: ${record.reason(end)}`);
  if (end.signal) {
    const oom = end.signal === 'SIGKILL' ? ' (possibly by the system when memory ran out)' : '';
    return failed(`was killed by ${end.signal}${oom}: ${record.reason(end)}`);
  }
  if (end.exitCode !== 0) return failed(`exited with code ${String(end.exitCode)}: ${record.reason(end)}`);
  if (!record.hello) return failed(`exited without saying 'hello' on its events descriptor: is it an external engine (docs/external-engines.md)? Its output: ${record.reason(end)}`);
  if (!record.done) return failed(`exited without sending 'done': ${record.reason(end)}`);
  return undefined;
}

/**
 * What the profiler runs for an engine name: the project's Python adapters (resources/engines/)
 * under the run's Python, or the user's own command, and the environment of protocol 1.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunConfig } from '../../../shared/config';
import { parseEngineName, type ParsedEngine } from '../../../shared/externalEngines';

export const PYTHON_ENV = 'KDE_PROFILER_PYTHON';
/** the descriptor the engine writes its messages to: the first after stdin, stdout and stderr */
export const EVENTS_FD = 3;
/** the module every adapter imports; its presence marks the adapters' folder */
const MARKER = 'kde_profiler_engine.py';

/**
 * The adapters' folder: resources/engines at the project root, reached from this file in source
 * (src/main/engineProcess/external) or from the bundle (out/main, out/main/chunks).
 */
export function adaptersDir(): string {
  for (const rel of ['../../../../resources/engines/', '../../resources/engines/', '../../../resources/engines/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(dir + MARKER)) return dir;
  }
  throw new Error(`the external engines' adapters (resources/engines/${MARKER}) are missing from this installation; reinstall KDE Profiler`);
}

export function pythonOf(config: Pick<RunConfig, 'enginePython'>, env: NodeJS.ProcessEnv = process.env): string {
  return config.enginePython ?? (env[PYTHON_ENV] || 'python3');
}

/** The command line of an engine (argv[0] is the program). */
export function engineArgv(engine: ParsedEngine, python: string): string[] {
  switch (engine.kind) {
    case 'numpy': return [python, adaptersDir() + 'numpy_engine.py'];
    case 'nld': return [python, adaptersDir() + 'nld_engine.py', '--variant', engine.variant, ...(engine.x64 ? ['--x64'] : [])];
    case 'nld-model': return [python, adaptersDir() + 'nld_model_engine.py', '--model', engine.model, ...(engine.x64 ? ['--x64'] : [])];
    case 'cmd': return engine.argv;
  }
}

export interface EngineInvocation {
  argv: string[];
  env: NodeJS.ProcessEnv;
}

export interface InvocationInputs {
  name: string;
  config: Pick<RunConfig, 'enginePython' | 'repeats' | 'warmup' | 'blockSize' | 'engineTrace' | 'posterior'>;
  dataPath: string;
  outDir: string;
}

/** The engine's command and its environment under protocol 1 (docs/external-engines.md). */
export function invocationOf(i: InvocationInputs, env: NodeJS.ProcessEnv = process.env): EngineInvocation {
  const engine = parseEngineName(i.name);
  const vars: NodeJS.ProcessEnv = {
    KDE_PROFILER_PROTOCOL: '1',
    KDE_PROFILER_DATA: i.dataPath,
    KDE_PROFILER_OUT: i.outDir,
    KDE_PROFILER_EVENTS_FD: String(EVENTS_FD),
    KDE_PROFILER_REPEATS: String(i.config.repeats),
    KDE_PROFILER_WARMUP: String(i.config.warmup),
    // Python's output is block-buffered into a pipe: unbuffered, a failing engine's last lines are not lost
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  if (i.config.blockSize !== undefined) vars.KDE_PROFILER_BLOCK_SIZE = String(i.config.blockSize);
  if (i.config.engineTrace) vars.KDE_PROFILER_FRAMEWORK_TRACE = '1';
  // an engine that can decode the posterior whole does so for the model the run decodes
  if (i.config.posterior) {
    vars.KDE_PROFILER_MODEL = i.config.posterior.model;
    // the run's Local state, and only the run's: empty (NLD's one-bin Local) unless the run gives a std,
    // whatever the environment the run was started from says
    const std = i.config.posterior.parameters?.localPositionStd;
    vars.KDE_PROFILER_LOCAL_POSITION_STD = std === undefined ? '' : String(std);
  }
  return { argv: engineArgv(engine, pythonOf(i.config, env)), env: { ...env, ...vars } };
}

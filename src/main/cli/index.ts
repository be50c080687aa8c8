/**
 * The `kde-profiler` command line: run, info, list, export, compare (and whatever the command
 * table gains). bin/kde-profiler.mjs calls runCli; main.ts is its module.
 *
 * Must not import electron, nor the engine statically: commands go through the service, which
 * runs the engine in its own process.
 */
export { runCli } from './main';
export { COMMANDS } from './commands';
export { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
export { parseFlags, stringFlag, intFlag, numberFlag, boolFlag, type Parsed } from './args';
export { defaultRunsDir, withService } from './cliService';

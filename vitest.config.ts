import { defineConfig } from 'vitest/config';

/**
 * Four test tiers as vitest projects (unit in two: shared and isolated module graphs). `npm test`
 * runs them all; the inner loop runs `npm run test:unit`, which starts no child process and no
 * worker thread.
 *
 * A test that starts processes is named here by its file name, not its folder, so it keeps its
 * tier when its folder moves.
 */

/**
 * The engine against its float64 fixtures, the spec's edge cases and the kernels' contracts, on
 * every backend here: files that switch the process's backend, each in its own module graph.
 */
const PARITY = [
  'src/main/engine/parity.*.test.ts', 'src/main/engine/edgeCases.test.ts', 'src/main/engine/kernels/*.test.ts', 'src/main/engine/webgpu/*.test.ts',
  'src/main/engine/backendChoice/*.test.ts', 'src/main/engineProcess/measurement/*.webgpu.test.ts',
];

/** A whole machine: browsers, the packed install, SLURM, faults staged with real processes. */
const SYSTEM = ['test/e2e/**/*.test.ts', 'test/faults/**/*.test.ts', 'test/pack.test.ts', 'test/slurm.test.ts', 'test/benchUiRun.test.ts', 'test/offlineBundle.test.ts'];

/** Tests beside their code that start the engine process, the CLI, a server or worker threads. */
const SPAWNING_UNIT_NEIGHBOURS = [
  'activeRun', 'clientPaths', 'engineInfo', 'engineHost', 'eventLogFailure', 'exportCommand', 'liveTimelineAnswers',
  'liveTimelineService', 'mergeCommand', 'mergeRuns', 'nwbCommands', 'pool', 'profilerService', 'relativePaths',
  'runLifecycle', 'runStoreFolder', 'serverLink', 'server', 'slurmScript', 'sweepCommand', 'sweeps', 'realFile',
  'recording', 'engineProcess', 'dataMapping', 'runStore', 'datasetSummaries',
].map((name) => `src/**/${name}.test.ts`).concat(['src/main/data/index.test.ts', 'src/main/host/probe.test.ts']);

const INTEGRATION = ['test/**/*.test.ts', ...SPAWNING_UNIT_NEIGHBOURS];

/**
 * Unit tests that replace a module (vi.mock): they need a module graph of their own, so they run
 * isolated; the rest of the unit tier shares one graph per worker, which halves its time.
 */
const MODULE_MOCKING = ['src/**/storeErrors.test.ts'];

/** What both halves of the unit tier share: the in-process guard and a unit test's time limit. */
const UNIT = { setupFiles: ['test/support/noChildProcesses.ts'], testTimeout: 30_000 };

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'out/**'],
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...PARITY, ...SPAWNING_UNIT_NEIGHBOURS, ...MODULE_MOCKING],
          isolate: false,
          ...UNIT,
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: MODULE_MOCKING, ...UNIT },
      },
      { extends: true, test: { name: 'parity', include: PARITY, testTimeout: 120_000, hookTimeout: 120_000 } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          exclude: ['**/node_modules/**', ...SYSTEM],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      { extends: true, test: { name: 'system', include: SYSTEM, testTimeout: 300_000, hookTimeout: 300_000 } },
    ],
  },
});

/**
 * Setup of the unit tier: a unit test starts no child process and no worker thread, so the tier
 * stays fast and runs anywhere. A test that needs one fails here with the way out, instead of
 * quietly slowing the inner loop.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

function refuse(what: string): never {
  throw new Error(
    `a unit test started ${what}: unit tests run in-process only. ` +
      'Name this test file in vitest.config.ts (SPAWNING_UNIT_NEIGHBOURS) to run it in the integration tier.',
  );
}

for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => refuse(`a child process (child_process.${name})`);
}
(workerThreads as unknown as Record<string, unknown>).Worker = class {
  constructor() {
    refuse('a worker thread');
  }
};
syncBuiltinESMExports();

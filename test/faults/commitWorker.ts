/**
 * Commits a result into a folder in a process of its own, for the kill tests (run with
 * `node --import tsx`): `commitWorker.ts DIR TAG KILL_AT`. The result is TAG's: report.json and
 * report.md saying TAG, and likelihood/TAG.npy. With KILL_AT = N the process kills itself with
 * SIGKILL at the N-th step of the commit (0 = once the staging folder is filled); with -1 it
 * commits whole and prints the steps it passed as one JSON array.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { commitResultFolder } from '../../src/main/data';
import { setCommitFaultHook } from '../../src/main/data/files/resultFolder';
import { RESULT_FOLDER_NAMES } from '../../src/main/engineProtocol';

const [dir, tag, killAt] = process.argv.slice(2) as [string, string, string];
const steps: string[] = [];
setCommitFaultHook((step) => {
  if (steps.length === Number(killAt)) process.kill(process.pid, 'SIGKILL');
  steps.push(step);
});
await commitResultFolder(dir, { all: RESULT_FOLDER_NAMES }, { kind: 'run', runId: tag, status: 'completed' }, async (staging) => {
  await writeFile(join(staging, 'report.json'), JSON.stringify({ tag }));
  await writeFile(join(staging, 'report.md'), `# ${tag}\n`);
  await mkdir(join(staging, 'likelihood'));
  await writeFile(join(staging, 'likelihood', `${tag}.npy`), tag.repeat(1000));
  return ['report.json', 'report.md', 'likelihood'];
});
process.stdout.write(JSON.stringify(steps));

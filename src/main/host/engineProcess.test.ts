import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../shared/config';
import { forkEngine } from './engineChild';
import { startEngine } from './engineHost';

const start = {
  type: 'start' as const, runId: 'oom', runDir: '/nonexistent', originNs: '0',
  config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' } }),
};
const quiet = { onTrace: () => undefined, onProgress: () => undefined, onLog: () => undefined };

describe('engine process deaths', () => {
  it('reports a V8 heap exhaustion as out of memory', async () => {
    const entry = fileURLToPath(new URL('../../../test/support/oomEngineEntry.ts', import.meta.url));
    const env = { ...process.env, NODE_OPTIONS: '--max-old-space-size=24' };
    const handle = startEngine(() => forkEngine({ entry, env }), start, quiet);
    const end = await handle.done;
    expect(end.kind).toBe('failed');
    expect(end.kind === 'failed' && end.error.message).toMatch(/^out of memory/);
  });

  it('reports an engine that cannot load as a failed run with its error', async () => {
    const entry = fileURLToPath(new URL('./doesNotExist.ts', import.meta.url));
    const end = await startEngine(() => forkEngine({ entry }), start, quiet).done;
    expect(end.kind).toBe('failed');
    expect(end.kind === 'failed' && end.error.message).toMatch(/exited unexpectedly with code 1: .*doesNotExist/);
  });
});

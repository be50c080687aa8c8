/**
 * The engine process's side of the wire. Under Node it talks over the fork IPC channel
 * (process.send); under Electron's utilityProcess over process.parentPort. It waits for one start
 * message, runs the measurement loop, and exits once its last message has left. If the service
 * goes away, so does it.
 */
import { serializeError } from '../../shared/errors';
import type { EngineDeps } from './engineDeps';
import { startEngineRun, type EngineRun } from './engineRun';
import { isHostMessage, type EngineToHost } from './messages';

interface ParentPortLike {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export function serveEngine(loadDeps: () => Promise<EngineDeps>): void {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  let run: EngineRun | undefined;
  let started = false;
  let cancelEarly = false;
  let pending: Promise<void> = Promise.resolve();

  const send = (message: EngineToHost): Promise<void> => {
    if (parentPort) {
      parentPort.postMessage(message);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (!process.connected || !process.send) return resolve();
      process.send(message, undefined, {}, () => resolve());
    });
  };
  // messages leave in order, and the exit waits for the last one
  const enqueue = (message: EngineToHost): void => {
    pending = pending.then(() => send(message));
  };

  const onMessage = async (raw: unknown): Promise<void> => {
    if (!isHostMessage(raw)) return;
    if (raw.type === 'cancel') {
      cancelEarly = true;
      if (run) run.cancel();
      else if (!started) process.exit(0);
      return;
    }
    if (started) return;
    started = true;
    try {
      const deps = await loadDeps();
      run = startEngineRun(raw, deps, enqueue);
      if (cancelEarly) run.cancel();
      await run.done;
    } catch (e) {
      enqueue({ type: 'error', error: serializeError(e) });
    }
    await pending;
    process.exit(0);
  };

  if (parentPort) parentPort.on('message', (e) => void onMessage(e.data));
  else {
    process.on('message', (m) => void onMessage(m));
    process.on('disconnect', () => process.exit(0));
  }
}

/**
 * The engine process's side of the wire. Under Node it talks over the fork IPC channel
 * (process.send); under Electron's utilityProcess over process.parentPort. It waits for one start
 * message, runs the run it asks for (the profiling loop, or a decode), and exits once its last
 * message has left (or, for a probe message, answers what it can compute on and exits). If the
 * service goes away, so does it. While a run goes it sends a heartbeat every HEARTBEAT_INTERVAL_MS,
 * so the service can tell a hung or stopped engine from a busy one.
 */
import { serializeError } from '../../../shared/errors';
import { lowerPriority, type EngineDeps, type EngineRun } from '../session';
import { startEngineRun } from './engineRun';
import { HEARTBEAT_INTERVAL_MS, isHostMessage, type EngineToHost } from '../../engineProtocol';

interface ParentPortLike {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export function serveEngine(loadDeps: () => Promise<EngineDeps>): void {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  let run: EngineRun | undefined;
  let started = false;
  let cancelEarly = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;

  // Messages go out at once, in order: waiting for each write's callback would hold them all back,
  // because callbacks only run when the event loop turns, and wasm compute keeps it from turning.
  const enqueue = (message: EngineToHost): void => {
    if (parentPort) {
      parentPort.postMessage(message);
      return;
    }
    if (!process.connected || !process.send) return;
    inFlight++;
    process.send(message, undefined, {}, () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
  };
  /** resolves when every message sent has been handed to the channel */
  const flushed = (): Promise<void> =>
    inFlight === 0 || !process.connected ? Promise.resolve() : new Promise((resolve) => (drained = resolve));

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
    // before the backend loads: the threads it and the engine workers start inherit the priority
    if (raw.type === 'start') lowerPriority(raw.niceness);
    // from the start message on, loading the backend included; unref'd, it never keeps a finished
    // engine alive. While wasm compute holds the event loop it pauses: the service then sees the
    // engine's CPU time advance instead.
    if (raw.type === 'start') setInterval(() => enqueue({ type: 'heartbeat' }), HEARTBEAT_INTERVAL_MS).unref();
    try {
      const deps = await loadDeps();
      if (raw.type === 'probe') {
        enqueue({ type: 'probe-result', probe: { backends: await deps.listBackends(), tfjsVersion: deps.tfjsVersion() } });
        await flushed();
        process.exit(0);
      }
      run = startEngineRun(raw, deps, enqueue);
      if (cancelEarly) run.cancel();
      await run.done;
    } catch (e) {
      enqueue({ type: 'error', error: serializeError(e) });
    }
    await flushed();
    process.exit(0);
  };

  if (parentPort) parentPort.on('message', (e) => void onMessage(e.data));
  else {
    process.on('message', (m) => void onMessage(m));
    process.on('disconnect', () => process.exit(0));
    // Ctrl-C reaches the whole process group: the service turns it into a cancel (or a kill),
    // so the engine must not die on its own first and look like a crash
    process.on('SIGINT', () => undefined);
  }
}

/**
 * The engine process's run loop: its side of the wire (engineServe.ts: one start message, the run
 * it asks for, a heartbeat while it goes, exit once the last message has left) and the runs it
 * starts (engineRun.ts): a profiling run measures each strategy, the local likelihood, their
 * agreement and accuracy, the external engines and the posterior; a decode is handed to decode/.
 *
 * Part of the engine process: it imports the process's other rooms; none of them imports it, only
 * engineMain.ts.
 */
export { serveEngine } from './engineServe';

/**
 * An engine process that takes a run's start message and then waits for ever (its backend never
 * loads): idle, using no CPU, its only sign of life the engine's own heartbeat. Forked by
 * engineHeartbeat.test.ts.
 */
import { serveEngine } from '../../src/main/engineProcess/run/engineServe';

serveEngine(() => new Promise(() => undefined));

/** Entry of the engine process: the real engine behind the host protocol. */
import { serveEngine } from './run';
import { realEngineDeps } from './session';

serveEngine(realEngineDeps);

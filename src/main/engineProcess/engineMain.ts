/** Entry of the engine process: the real engine behind the host protocol. */
import { serveEngine } from './engineServe';
import { realEngineDeps } from './realDeps';

serveEngine(realEngineDeps);

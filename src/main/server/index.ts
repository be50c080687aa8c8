/**
 * Web mode: the built renderer and ProfilerApi over HTTP + WebSocket on loopback, behind a random
 * token, for headless machines reached over SSH and for browser tests.
 *
 * Must not import electron, the renderer, or the engine.
 */
export { startServer, type RunningServer, type ServerOptions } from './startServer';
export { PAGE_LIVENESS, type PageLivenessOptions } from './pageLiveness';
export { isLoopbackHost, isOwnOrigin, newToken } from './auth';
export { mimeType, resolveStaticPath } from './staticFiles';

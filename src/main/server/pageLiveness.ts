/**
 * Which pages are still there. A page that stops reading (a frozen or suspended tab, a laptop shut
 * with the SSH tunnel half-open) keeps its WebSocket open and its place among MAX_SESSIONS; without
 * a check, enough of them lock every new page out with 503 for as long as the server runs. Each
 * page is pinged on a timer and dropped, with a log line saying why, when it has answered nothing
 * for too long or when what the server has queued for it stays large without shrinking.
 */
import type { WebSocket, WebSocketServer } from 'ws';

export interface PageLivenessOptions {
  /** how often each page is pinged and its backlog looked at */
  pingIntervalMs: number;
  /** a page that answered nothing (no pong, no message, its backlog not shrinking) for this long is gone */
  silentLimitMs: number;
  /** bytes queued for a page above which it may have stopped reading... */
  backlogLimitBytes: number;
  /** ...and does, once its backlog stayed above that, without shrinking, for this long */
  backlogLimitMs: number;
}

/**
 * A browser answers pings in its network stack, even from a busy or background tab, so silence
 * means the page or the connection is gone. 15 s pings cost a few bytes per page; 45 s of silence
 * is three missed pings, so one late answer over a slow tunnel does not drop a page, and a stalled
 * page's place is free again within a minute. A backlog of one full answer (64 MB) that does not
 * shrink for a minute is a page that stopped reading: a slow link still drains it, and the
 * session's own cap (twice that, wsSession.ts) stops the worst case at once.
 */
export const PAGE_LIVENESS: PageLivenessOptions = {
  pingIntervalMs: 15_000,
  silentLimitMs: 45_000,
  backlogLimitBytes: 64 * 1024 * 1024,
  backlogLimitMs: 60_000,
};

interface PageState {
  lastHeardMs: number;
  lastBacklogBytes: number;
  /** since when the backlog has stayed above the limit without shrinking */
  backlogStuckSinceMs: number | undefined;
}

export interface PageWatch {
  /** starts watching a page that just connected */
  track(ws: WebSocket): void;
  stop(): void;
}

const OPEN = 1;

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1e5) / 10} MB`;
}

/** Why this page should be dropped now, or undefined while it is alive; updates its state. */
function dropReason(state: PageState, backlogBytes: number, nowMs: number, o: PageLivenessOptions): string | undefined {
  const shrinking = backlogBytes < state.lastBacklogBytes;
  // a page reading a large answer over a slow link has its pong queued behind it: draining is an answer too
  if (shrinking) state.lastHeardMs = nowMs;
  state.lastBacklogBytes = backlogBytes;
  if (backlogBytes <= o.backlogLimitBytes || shrinking) state.backlogStuckSinceMs = undefined;
  else state.backlogStuckSinceMs ??= nowMs;
  const silentMs = nowMs - state.lastHeardMs;
  if (silentMs >= o.silentLimitMs) return `did not answer a ping for ${seconds(silentMs)} (the limit is ${seconds(o.silentLimitMs)})`;
  const stuckMs = state.backlogStuckSinceMs === undefined ? 0 : nowMs - state.backlogStuckSinceMs;
  if (stuckMs >= o.backlogLimitMs) {
    return `stopped reading: ${megabytes(backlogBytes)} queued for it has not shrunk for ${seconds(stuckMs)} (the limits are ${megabytes(o.backlogLimitBytes)} and ${seconds(o.backlogLimitMs)})`;
  }
  return undefined;
}

/**
 * Pings the server's pages every pingIntervalMs and drops those gone silent or stuck; the log
 * line names the reason, and the page's place among MAX_SESSIONS is free once its socket closes.
 */
export function watchPages(wss: WebSocketServer, options: PageLivenessOptions, log: (line: string) => void): PageWatch {
  const pages = new WeakMap<WebSocket, PageState>();
  const tick = (): void => {
    const nowMs = performance.now();
    for (const ws of wss.clients) {
      const state = pages.get(ws);
      if (!state || ws.readyState !== OPEN) continue;
      const reason = dropReason(state, ws.bufferedAmount, nowMs, options);
      if (reason !== undefined) {
        log(`dropped a page that ${reason}; its place is free for another page.`);
        pages.delete(ws);
        ws.terminate();
        continue;
      }
      ws.ping();
    }
  };
  const timer = setInterval(tick, options.pingIntervalMs);
  // the watch serves the server; it must not keep a process alive that is otherwise done
  timer.unref();
  return {
    track(ws) {
      const state: PageState = { lastHeardMs: performance.now(), lastBacklogBytes: 0, backlogStuckSinceMs: undefined };
      pages.set(ws, state);
      const heard = (): void => {
        state.lastHeardMs = performance.now();
      };
      ws.on('pong', heard);
      ws.on('message', heard);
    },
    stop() {
      clearInterval(timer);
    },
  };
}

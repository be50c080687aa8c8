/**
 * Where the page's WebSocket goes and with which token. `kde-profiler serve` prints the page URL
 * with `?token=`; on load the page moves the token into the origin's localStorage and out of the
 * address bar (so it is not left in history, bookmarks or a shared screen), keeping the path and
 * the hash, which is the app's route. A reload, or a run link copied into another tab of the same
 * browser, finds it there (localStorage is per origin: scheme, host and port). No cookie is used:
 * cookies are per host, not per port, so every other server on 127.0.0.1 would receive one.
 */

export interface LocationLike {
  protocol: string;
  host: string;
  /** '' for the scheme's default port */
  port: string;
  pathname: string;
  search: string;
  hash: string;
}

/** The part of the Web Storage API used here (localStorage in the page). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The part of the History API used here. */
export interface HistoryLike {
  readonly state: unknown;
  replaceState(data: unknown, unused: string, url?: string): void;
}

export function tokenFromSearch(search: string): string | null {
  const token = new URLSearchParams(search).get('token');
  return token !== null && token.length > 0 ? token : null;
}

/** One key per port: two servers on one host in one tab never read each other's token. */
export function tokenStorageKey(location: Pick<LocationLike, 'protocol' | 'port'>): string {
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  return `kde-profiler-token:${port}`;
}

/** The same URL without `token` in its query: other parameters, the path and the hash stay. */
export function addressWithoutToken(location: Pick<LocationLike, 'pathname' | 'search' | 'hash'>): string {
  const params = new URLSearchParams(location.search);
  params.delete('token');
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
}

/**
 * The page's token, or null when it has none. A token in the address bar wins (a server
 * restarted on the same port prints a new one), is stored for reloads, and is removed from the
 * address bar; otherwise the token stored by an earlier load of this page, in any tab, is used.
 */
export function takePageToken(location: LocationLike, storage: TokenStorage | null, history: HistoryLike): string | null {
  const key = tokenStorageKey(location);
  const fromAddress = tokenFromSearch(location.search);
  if (fromAddress === null) return readStored(storage, key);
  try {
    storage?.setItem(key, fromAddress);
  } catch {
    // storage refused (quota, privacy mode): this load still works, a reload will ask for the link
  }
  history.replaceState(history.state, '', addressWithoutToken(location));
  return fromAddress;
}

function readStored(storage: TokenStorage | null, key: string): string | null {
  try {
    const stored = storage?.getItem(key) ?? null;
    return stored !== null && stored.length > 0 ? stored : null;
  } catch {
    return null;
  }
}

export function wsUrlFor(location: Pick<LocationLike, 'protocol' | 'host'>, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

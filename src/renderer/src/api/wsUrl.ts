/**
 * Where the page's WebSocket goes: `/ws` on the page's own origin. The token comes from the page
 * URL (`?token=`) when it is there; otherwise the HttpOnly cookie the server set on the first load
 * rides along with the upgrade request by itself.
 */

export interface LocationLike {
  protocol: string;
  host: string;
  search: string;
}

export function tokenFromSearch(search: string): string | null {
  const token = new URLSearchParams(search).get('token');
  return token !== null && token.length > 0 ? token : null;
}

export function wsUrlFromLocation(location: LocationLike): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = tokenFromSearch(location.search);
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  return `${scheme}//${location.host}/ws${query}`;
}

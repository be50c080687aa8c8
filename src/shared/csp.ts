/**
 * The renderer's Content-Security-Policy, one definition for every way the page is delivered:
 * the desktop window (a meta tag in index.html, plus a response header under the dev server) and
 * web mode (a response header). No inline or eval'd script; network only to the page's origin
 * (which includes its own WebSocket); no plugins, no framing, no form posts.
 */

const DIRECTIVES: [string, string][] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  // Vue and ECharts set style attributes; styles cannot run code, scripts stay strict
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self' data:"],
  ['connect-src', "'self'"],
  ['worker-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
];

/** The policy as a meta tag may carry it (browsers ignore frame-ancestors there, with a warning). */
export function rendererCspMeta(): string {
  return DIRECTIVES.map(([k, v]) => `${k} ${v}`).join('; ');
}

/** The policy as a response header: the meta policy plus a refusal to be framed. */
export function rendererCspHeader(): string {
  return `${rendererCspMeta()}; frame-ancestors 'none'`;
}

/**
 * The built renderer over HTTP: a request path maps to a file inside the static folder or to
 * nothing (no `..`, no encoded separators, no symlink leading out), served with its MIME type.
 * These files are served without the token, so only the kinds a page bundle is made of are
 * served at all: a data file (JSON, text, arrays) left in a mistaken --static-dir stays private.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function mimeType(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

function isPageBundleFile(path: string): boolean {
  return Object.hasOwn(MIME, extname(path).toLowerCase());
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/**
 * The page-bundle file a URL path names inside `root`, or null when it names nothing servable.
 * `root` must be absolute and already resolved through symlinks.
 */
export async function resolveStaticPath(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const candidate = resolve(root, relative);
  if (!inside(root, candidate) || !isPageBundleFile(candidate)) return null;
  try {
    const real = await realpath(candidate);
    if (!inside(root, real) || !isPageBundleFile(real)) return null;
    const info = await stat(real);
    return info.isFile() ? real : null;
  } catch {
    return null;
  }
}

export async function sendFile(res: ServerResponse, path: string, headOnly: boolean, headers: Record<string, string>): Promise<void> {
  const info = await stat(path);
  res.writeHead(200, { 'Content-Type': mimeType(path), 'Content-Length': String(info.size), ...headers });
  if (headOnly) {
    res.end();
    return;
  }
  const stream = createReadStream(path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

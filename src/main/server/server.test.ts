import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_CLIENT_MESSAGE_BYTES, type ServerMessage } from '../../shared/wire';
import { MAX_SESSIONS, startServer, type RunningServer } from './startServer';
import { stubService, type StubService } from './testService';

let dir: string;
let server: RunningServer;
let service: StubService;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-server-'));
  const root = join(dir, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'style.css'), 'body{}');
  // data that a mistaken --static-dir might hold: never served, since static files need no token
  await writeFile(join(root, 'report.json'), '{"secret":1}');
  await writeFile(join(root, 'notes.txt'), 'secret');
  await writeFile(join(root, 'spikes.npz'), 'secret');
  await writeFile(join(dir, 'secret.txt'), 'secret');
  await symlink(join(dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
  service = stubService();
  server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir: root });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw request: the path goes out exactly as written (fetch would normalise `..` away). */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function wsOutcome(url: string, origin?: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => resolve(-1));
  });
}

describe('startServer: HTTP', () => {
  it('prints a URL on 127.0.0.1 with a base64url token of 24 random bytes', () => {
    expect(server.url).toBe(`${base}/?token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('serves the page bundle without the token (it holds no data), and never sets a cookie', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/assets/style.css', '/?token=wrong', `/?token=${server.token}`, `/assets/app.js?token=${server.token}`]) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['set-cookie'], path).toBeUndefined();
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('serves the page with a CSP and no caching, its assets with their types', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    const js = await raw('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe('console.log(1)');
    expect((await raw('/assets/style.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('serves only the kinds of file a page bundle is made of, token or not', async () => {
    for (const path of ['/report.json', '/notes.txt', '/spikes.npz']) {
      for (const query of ['', `?token=${server.token}`]) {
        const res = await raw(`${path}${query}`);
        expect(res.status, path + query).toBe(404);
        expect(res.body).not.toContain('secret');
      }
    }
  });

  it('refuses paths that lead out of the static folder', async () => {
    const t = `token=${server.token}`;
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e%5c..%5csecret.txt', '/assets/link.txt', '/%00index.html']) {
      const res = await raw(`${path}?${t}`);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('secret');
    }
    expect((await raw(`/missing.js?${t}`)).status).toBe(404);
  });

  it('answers only to loopback host names and only GET/HEAD', async () => {
    expect((await raw('/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await raw(`/?token=${server.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await raw('/assets/app.js', { host: 'evil.example' })).status).toBe(403);
    expect((await raw('/', { host: `localhost:${server.port}` })).status).toBe(200);
    const post = await new Promise<number>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: `/?token=${server.token}`, method: 'POST' }, (res) => resolve(res.statusCode ?? 0));
      req.end();
    });
    expect(post).toBe(405);
  });

  it('listens on 127.0.0.1 only', async () => {
    const others = Object.values(networkInterfaces()).flat().filter((n) => n && n.family === 'IPv4' && !n.internal);
    for (const n of others) {
      const reached = await new Promise<boolean>((resolve) => {
        const req = request({ host: n!.address, port: server.port, path: '/', timeout: 1000 }, () => resolve(true));
        req.on('error', () => resolve(false));
        req.on('timeout', () => {
          req.destroy();
          resolve(false);
        });
        req.end();
      });
      expect(reached, n!.address).toBe(false);
    }
    await expect(startServer({ service, host: '0.0.0.0' as never, staticDir: dir })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});

describe('startServer: WebSocket', () => {
  const wsUrl = () => `ws://127.0.0.1:${server.port}/ws`;

  it('refuses the upgrade without the token, from a foreign origin, or with no origin', async () => {
    expect(await wsOutcome(wsUrl(), base)).toBe(401);
    expect(await wsOutcome(`${wsUrl()}?token=nope`, base)).toBe(401);
    expect(await wsOutcome(`${wsUrl()}?token=${server.token}`, 'http://evil.example')).toBe(403);
    expect(await wsOutcome(`${wsUrl()}?token=${server.token}`, `http://127.0.0.1:${server.port + 1}`)).toBe(403);
    expect(await wsOutcome(`${wsUrl()}?token=${server.token}`)).toBe(403);
    expect(await wsOutcome(`ws://127.0.0.1:${server.port}/other?token=${server.token}`, base)).toBe(404);
    expect(await wsOutcome(`${wsUrl()}?token=${server.token}`, base)).toBe('open');
  });

  it('takes the token from the WebSocket URL only: a cookie carrying it is not enough', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const ws = new WebSocket(wsUrl(), { origin: base, headers: { cookie: `kde_profiler_${server.port}=${server.token}; token=${server.token}` } });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_r, res) => resolve(String(res.statusCode)));
      ws.on('error', () => resolve('error'));
    });
    expect(outcome).toBe('401');
  });

  it('answers calls, errors, malformed messages; forwards events; drops subscriptions on close', async () => {
    const ws = new WebSocket(`${wsUrl()}?token=${server.token}`, { origin: base });
    const inbox: ServerMessage[] = [];
    ws.on('message', (d) => inbox.push(JSON.parse((d as Buffer).toString('utf8')) as ServerMessage));
    await new Promise((r) => ws.on('open', r));
    const waitFor = async (pred: (m: ServerMessage) => boolean) => {
      for (let i = 0; i < 200; i++) {
        const m = inbox.find(pred);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error('no such message');
    };
    const byId = (id: number) => waitFor((m) => m.kind === 'result' && m.id === id);

    ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'getInfo', params: [] }));
    expect(await byId(1)).toEqual({ kind: 'result', id: 1, ok: true, result: { version: '9.9.9' } });
    ws.send(JSON.stringify({ kind: 'call', id: 2, method: 'getRun', params: ['x'] }));
    expect(await byId(2)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    ws.send(JSON.stringify({ kind: 'call', id: 3, method: 'getRun', params: [] }));
    expect(await byId(3)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT' } });
    ws.send(JSON.stringify({ kind: 'call', id: 4, method: 'getRun', params: [{ evil: true }] }));
    expect(await byId(4)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT' } });
    ws.send(JSON.stringify({ kind: 'call', id: 5, method: 'constructor', params: [] }));
    expect(await byId(5)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT' } });
    ws.send('not json');
    ws.send(JSON.stringify({ kind: 'call', id: 6, method: 'cancelRun', params: ['20250101-000000-abcdef'] }));
    expect(await byId(6)).toEqual({ kind: 'result', id: 6, ok: true, result: null });

    ws.send(JSON.stringify({ kind: 'subscribe', id: 7, runId: '*' }));
    ws.send(JSON.stringify({ kind: 'subscribe', id: 8, runId: '*' }));
    await byId(8);
    expect(service.listeners.get('*')?.size).toBe(1);
    service.emit({ type: 'log', runId: 'r', seq: 0, level: 'info', message: 'hello' });
    expect(await waitFor((m) => m.kind === 'event')).toEqual({ kind: 'event', runId: '*', event: { type: 'log', runId: 'r', seq: 0, level: 'info', message: 'hello' } });

    ws.close();
    await new Promise((r) => ws.on('close', r));
    for (let i = 0; i < 100 && service.listeners.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(service.listeners.size).toBe(0);
  });

  it('closes a connection that sends more than MAX_CLIENT_MESSAGE_BYTES (2 MB)', async () => {
    const ws = new WebSocket(`${wsUrl()}?token=${server.token}`, { origin: base });
    await new Promise((r) => ws.on('open', r));
    const code = new Promise<number>((r) => ws.on('close', (c) => r(c)));
    ws.send('x'.repeat(MAX_CLIENT_MESSAGE_BYTES + 1));
    expect(await code).toBe(1009);
  });

  it('answers a large malformed message under the cap once, and keeps serving', async () => {
    const ws = new WebSocket(`${wsUrl()}?token=${server.token}`, { origin: base });
    await new Promise((r) => ws.on('open', r));
    const answers: ServerMessage[] = [];
    ws.on('message', (d) => answers.push(JSON.parse((d as Buffer).toString('utf8')) as ServerMessage));
    // an array of empty objects is the costliest JSON per byte to hold after parsing
    const junk = `{"id":7,"kind":"call","method":"nope","params":[${'{},'.repeat(600_000)}{}]}`;
    expect(junk.length).toBeLessThan(MAX_CLIENT_MESSAGE_BYTES);
    ws.send(junk);
    ws.send(JSON.stringify({ kind: 'call', id: 8, method: 'listPresets', params: [] }));
    for (let i = 0; i < 200 && answers.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ kind: 'result', id: 7, ok: false, error: { code: 'BAD_ARGUMENT' } });
    expect(answers[1]).toMatchObject({ kind: 'result', id: 8, ok: true });
    ws.close();
  });

  it(`refuses a page beyond ${MAX_SESSIONS} open at once with 503, and takes one again when a page leaves`, async () => {
    const open: WebSocket[] = [];
    try {
      while (open.length < MAX_SESSIONS) {
        const ws = new WebSocket(`${wsUrl()}?token=${server.token}`, { origin: base });
        const outcome = await new Promise<string>((r) => {
          ws.on('open', () => r('open'));
          ws.on('unexpected-response', (_q, res) => r(String(res.statusCode)));
        });
        if (outcome !== 'open') break;
        open.push(ws);
      }
      // other tests' pages may still be closing: at most the cap is open
      expect(open.length).toBeLessThanOrEqual(MAX_SESSIONS);
      expect(await wsOutcome(`${wsUrl()}?token=${server.token}`, base)).toBe(503);
      const leaving = open.pop()!;
      const closed = new Promise((r) => leaving.on('close', r));
      leaving.close();
      await closed;
      for (let i = 0; i < 100; i++) {
        const outcome = await wsOutcome(`${wsUrl()}?token=${server.token}`, base);
        if (outcome === 'open') break;
        await new Promise((r) => setTimeout(r, 10));
        if (i === 99) expect(outcome).toBe('open');
      }
    } finally {
      for (const ws of open) ws.terminate();
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppError } from '../../../shared/errors';
import { MISSING_TOKEN_MESSAGE } from './missingTokenClient';
import { addressWithoutToken, takePageToken, tokenFromSearch, tokenStorageKey, wsUrlFor, type TokenStorage } from './wsUrl';

/** One browser tab: its address (location and history move together) and the origin's storage, shared with the tabs opened beside it. */
class FakeTab {
  href: string;
  readonly replaced: string[] = [];

  constructor(href: string, readonly stored = new Map<string, string>()) {
    this.href = href;
  }

  /** another tab of the same browser at `href`: its own address, the same origin storage */
  besideAt(href: string): FakeTab {
    return new FakeTab(href, this.stored);
  }

  get location() {
    const u = new URL(this.href);
    return { protocol: u.protocol, host: u.host, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash };
  }

  readonly history = {
    state: { kept: true } as unknown,
    replaceState: (data: unknown, _unused: string, url?: string) => {
      expect(data).toEqual({ kept: true });
      this.href = new URL(url ?? this.href, this.href).href;
      this.replaced.push(url ?? '');
    },
  };

  readonly storage: TokenStorage = {
    getItem: (key) => this.stored.get(key) ?? null,
    setItem: (key, value) => void this.stored.set(key, value),
  };

  /** a reload keeps the address and the storage */
  take(): string | null {
    return takePageToken(this.location, this.storage, this.history);
  }
}

describe('the page token', () => {
  it('is read from the query, stored under a key with the port, and removed from the address bar; path and hash stay', () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=a-b_c#/results?run=20250101-120000-abcdef');
    expect(tab.take()).toBe('a-b_c');
    expect(tab.stored.get('kde-profiler-token:5123')).toBe('a-b_c');
    expect(tab.href).toBe('http://127.0.0.1:5123/#/results?run=20250101-120000-abcdef');
    expect(tab.href).not.toContain('token');
  });

  it('keeps other query parameters and the path when it removes the token', () => {
    expect(addressWithoutToken({ pathname: '/index.html', search: '?a=1&token=t&b=2', hash: '#/runs' })).toBe('/index.html?a=1&b=2#/runs');
    expect(addressWithoutToken({ pathname: '/', search: '?token=t', hash: '' })).toBe('/');
  });

  it('comes from storage on a reload, when the address bar no longer has it', () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=first#/runs');
    tab.take();
    expect(tab.take()).toBe('first');
    expect(tab.replaced).toHaveLength(1);
    expect(tab.href).toBe('http://127.0.0.1:5123/#/runs');
  });

  it('from a new link wins over a stored one (a server restarted on the same port)', () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=old');
    tab.take();
    tab.href = 'http://127.0.0.1:5123/?token=new#/data';
    expect(tab.take()).toBe('new');
    expect(tab.take()).toBe('new');
  });

  it('is null when neither the address bar nor the tab has one, and the address is left alone', () => {
    const tab = new FakeTab('http://127.0.0.1:5123/#/runs');
    expect(tab.take()).toBeNull();
    expect(tab.replaced).toEqual([]);
    expect(tokenFromSearch('?x=1&token=')).toBeNull();
    tab.stored.set('kde-profiler-token:5124', 'another-server');
    expect(tab.take()).toBeNull();
  });

  it('still leaves the address bar when storage refuses it, and is null on a reload then', () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=t');
    const refusing: TokenStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(takePageToken(tab.location, refusing, tab.history)).toBe('t');
    expect(tab.href).toBe('http://127.0.0.1:5123/');
    expect(takePageToken(tab.location, refusing, tab.history)).toBeNull();
    expect(takePageToken(tab.location, null, tab.history)).toBeNull();
  });

  it('keys storage by port, with the default port spelled out', () => {
    expect(tokenStorageKey({ protocol: 'http:', port: '5123' })).toBe('kde-profiler-token:5123');
    expect(tokenStorageKey({ protocol: 'http:', port: '' })).toBe('kde-profiler-token:80');
    expect(tokenStorageKey({ protocol: 'https:', port: '' })).toBe('kde-profiler-token:443');
  });

  it('rides in the query of the WebSocket URL on the page origin', () => {
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:5123' }, 'a-b_c')).toBe('ws://127.0.0.1:5123/ws?token=a-b_c');
    expect(wsUrlFor({ protocol: 'https:', host: 'h:1' }, 'a+b')).toBe('wss://h:1/ws?token=a%2Bb');
  });
});

describe('getApi in web mode', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** a fresh api/ module in a tab at `href`, with a WebSocket that records where it connects */
  async function loadIn(tab: FakeTab) {
    const opened: string[] = [];
    vi.stubGlobal('location', tab.location);
    vi.stubGlobal('history', tab.history);
    vi.stubGlobal('localStorage', tab.storage);
    vi.stubGlobal('WebSocket', class {
      readyState = 0;
      onopen = null;
      onmessage = null;
      onclose = null;
      onerror = null;
      constructor(url: string) {
        opened.push(url);
      }
      send() {}
      close() {}
    });
    vi.resetModules();
    const api = await import('./index');
    return { api, opened };
  }

  it('connects in a new tab of the same browser from a run link without the token (the origin keeps it)', async () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=tok#/runs');
    const first = await loadIn(tab);
    first.api.getWsApi()!.close();
    const copied = await loadIn(tab.besideAt('http://127.0.0.1:5123/#/results?run=r'));
    expect(copied.api.getWsApi()).not.toBeNull();
    expect(copied.opened).toEqual(['ws://127.0.0.1:5123/ws?token=tok']);
    copied.api.getWsApi()!.close();
    // another port is another origin's server: its page has no token from this one
    const other = await loadIn(new FakeTab('http://127.0.0.1:5124/#/runs', tab.stored));
    expect(other.api.getWsApi()).toBeNull();
    expect(other.opened).toEqual([]);
  });

  it('connects with the token from the link, then from storage after a reload', async () => {
    const tab = new FakeTab('http://127.0.0.1:5123/?token=tok#/results?run=r');
    const first = await loadIn(tab);
    expect(first.api.getWsApi()).not.toBeNull();
    expect(first.opened).toEqual(['ws://127.0.0.1:5123/ws?token=tok']);
    expect(tab.href).toBe('http://127.0.0.1:5123/#/results?run=r');
    first.api.getWsApi()!.close();

    const reloaded = await loadIn(tab);
    expect(reloaded.api.getWsApi()).not.toBeNull();
    expect(reloaded.opened).toEqual(['ws://127.0.0.1:5123/ws?token=tok']);
    reloaded.api.getWsApi()!.close();
  });

  it('without a token opens no socket and answers every call with what to open', async () => {
    const { api, opened } = await loadIn(new FakeTab('http://127.0.0.1:5123/#/runs'));
    const client = api.getApi();
    expect(opened).toEqual([]);
    expect(api.getWsApi()).toBeNull();
    const e = (await client.getInfo().catch((x: unknown) => x)) as AppError;
    // a fresh module graph has its own AppError class: compare by name
    expect(e.name).toBe('AppError');
    expect(e.code).toBe('UNAUTHORIZED');
    expect(e.message).toBe(MISSING_TOKEN_MESSAGE);
    expect(e.message).toContain('kde-profiler serve');
    expect(await client.pickDataFile()).toBeNull();
    expect(typeof client.subscribe('*', () => undefined)).toBe('function');
  });
});

import { describe, expect, it } from 'vitest';
import { browserCommand } from './openBrowser';

describe('opening a link in the browser', () => {
  it('uses the desktop opener of each system, and none on a Linux without a display (a server over SSH)', () => {
    expect(browserCommand('http://x', 'darwin', {})).toEqual(['open', 'http://x']);
    expect(browserCommand('http://x', 'win32', {})).toEqual(['cmd', '/c', 'start', '""', 'http://x']);
    expect(browserCommand('http://x', 'linux', { DISPLAY: ':0' })).toEqual(['xdg-open', 'http://x']);
    expect(browserCommand('http://x', 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual(['xdg-open', 'http://x']);
    expect(browserCommand('http://x', 'linux', {})).toBeUndefined();
  });
});

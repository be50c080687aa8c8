import { describe, expect, it } from 'vitest';
import { createDesktopFiles } from './files';

describe('window.profilerFiles', () => {
  it('answers the path Electron knows for a dropped file', () => {
    const file = new File(['x'], 'session.npz');
    const files = createDesktopFiles({ getPathForFile: (f) => (f === file ? '/data/session.npz' : '') });
    expect(files.pathForFile(file)).toBe('/data/session.npz');
  });

  it('answers an empty path when Electron throws or has none', () => {
    const throwing = createDesktopFiles({
      getPathForFile: () => {
        throw new TypeError('Expected a File');
      },
    });
    expect(throwing.pathForFile({} as File)).toBe('');
    expect(createDesktopFiles({ getPathForFile: () => undefined as unknown as string }).pathForFile(new File([], 'a'))).toBe('');
  });
});

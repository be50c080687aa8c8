import { describe, expect, it } from 'vitest';
import { csvText, markdownLine, markdownText, showControls, terminalText } from './untrustedText';

describe('text from a data file', () => {
  it('shows acting characters as their escapes, keeping tab and newline unless asked', () => {
    expect(showControls('a\x1b[2Jb\u202ec\td\ne\x9b')).toBe('a\\u001b[2Jb\\u202ec\td\ne\\u009b');
    expect(showControls('a\tb\nc', true)).toBe('a\\u0009b\\u000ac');
    expect(showControls('plain text, é, 日本')).toBe('plain text, é, 日本');
  });

  it('passes the sequences the CLI writes itself, and only those', () => {
    const erase = '\r\x1b[K';
    expect(terminalText(`${erase}[ 45%] run\x1b]0;t\x07 \r`, [erase])).toBe(`${erase}[ 45%] run\\u001b]0;t\\u0007 \\u000d`);
    expect(terminalText('line\n')).toBe('line\n');
  });

  it('escapes what would start HTML, an entity or a link in Markdown, and nothing a report writes itself', () => {
    expect(markdownText('<img src=x> &#x202E; [a](javascript:x) ![i][r] **bold** `code` a < b')).toBe(
      '\\<img src=x> \\&#x202E; [a\\](javascript:x) ![i\\][r] **bold** `code` a \\< b',
    );
    expect(markdownText('| 1.5 ms | ✅ | ≤ 0.35× | fit & predict |')).toBe('| 1.5 ms | ✅ | ≤ 0.35× | fit & predict |');
    expect(markdownLine('a\nb\r\nc')).toBe('a b c');
  });

  it('makes a CSV cell that would be a formula text, and leaves numbers alone', () => {
    expect(['=SUM(1)', '+1+2', '-cmd', '@x', '\tx'].map(csvText)).toEqual(["'=SUM(1)", "'+1+2", "'-cmd", "'@x", "'\tx"]);
    expect(['-1.5', '+3', '-2e-5', '-Infinity', 'tet01', ''].map(csvText)).toEqual(['-1.5', '+3', '-2e-5', '-Infinity', 'tet01', '']);
  });
});

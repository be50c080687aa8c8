import { describe, expect, it } from 'vitest';
import { jsonDepth, parseBoundedJson } from './boundedJson';

describe('bounded JSON', () => {
  it('measures nesting, skipping brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[[\\"[["}')).toBe(1);
  });

  it('parses what is within bounds', () => {
    expect(parseBoundedJson('{"a":[1,2]}', 'x.json')).toEqual({ a: [1, 2] });
  });

  it('refuses a deep file without a RangeError', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseBoundedJson(deep, 'report.json')).toThrow(/report.json nests deeper than 64 levels/);
  });

  it('refuses a long file and invalid JSON, naming the file', () => {
    expect(() => parseBoundedJson('[1,2,3]', 'a.json', { maxChars: 3, maxDepth: 5 })).toThrow(/a.json holds 7 characters/);
    expect(() => parseBoundedJson('{', 'b.json')).toThrow(/b.json is not valid JSON/);
  });
});

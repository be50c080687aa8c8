import { describe, expect, it } from 'vitest';
import { intFlag, numberFlag, parseFlags, refuseTogether } from './args';

const OPTIONS = { port: { type: 'string' }, quiet: { type: 'boolean' }, tag: { type: 'string', multiple: true } } as const;

describe('parseFlags', () => {
  it('refuses a flag given twice, unless it may repeat', () => {
    expect(() => parseFlags(['--port', '1', '--port', '2'], OPTIONS)).toThrow('--port is given twice: give it once');
    expect(() => parseFlags(['--quiet', '--quiet'], OPTIONS)).toThrow('--quiet is given twice');
    expect(parseFlags(['--tag', 'a', '--tag', 'b'], OPTIONS).values.tag).toEqual(['a', 'b']);
  });

  it('takes a negative number after a flag as its value, so the range check can name it', () => {
    const p = parseFlags(['--port', '-5'], OPTIONS);
    expect(() => intFlag(p, 'port', 0, 65535)).toThrow("--port: expected an integer from 0 to 65535, got '-5'");
    expect(numberFlag(parseFlags(['--port', '-0.5'], OPTIONS), 'port', false)).toBe(-0.5);
  });

  it('checks ranges with a plain message', () => {
    expect(() => intFlag(parseFlags(['--port', '70000'], OPTIONS), 'port', 0, 65535)).toThrow("expected an integer from 0 to 65535, got '70000'");
    expect(intFlag(parseFlags(['--port', '8080'], OPTIONS), 'port', 0, 65535)).toBe(8080);
  });

  it('refuses contradicting flags together', () => {
    const p = parseFlags(['--quiet', '--port', '1'], OPTIONS);
    expect(() => refuseTogether(p, [['quiet', 'port', 'one or the other']])).toThrow('--quiet and --port contradict each other: one or the other');
    expect(() => refuseTogether(parseFlags(['--quiet'], OPTIONS), [['quiet', 'port', 'x']])).not.toThrow();
  });
});

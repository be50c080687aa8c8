import { describe, expect, it } from 'vitest';
import { MAX_AREA_LANES, spanAreaRequest, spanSearchRequest } from './validate';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('timeline search and area requests from a client', () => {
  it('passes well-formed requests through', () => {
    expect(spanSearchRequest({ text: 'gemm', fromUs: 0, direction: 'previous' })).toEqual({ text: 'gemm', fromUs: 0, direction: 'previous' });
    expect(spanAreaRequest({ startUs: 1, endUs: 2, lanes: ['engine:1'] })).toEqual({ startUs: 1, endUs: 2, lanes: ['engine:1'] });
  });

  it('names the key that is wrong', () => {
    expect(message(() => spanSearchRequest({ text: '', fromUs: 0, direction: 'next' }))).toMatch(/^request\.text:/);
    expect(message(() => spanSearchRequest({ text: 'x'.repeat(201), fromUs: 0, direction: 'next' }))).toMatch(/^request\.text:/);
    expect(message(() => spanSearchRequest({ text: 'a', fromUs: Number.NaN, direction: 'next' }))).toMatch(/^request\.fromUs:/);
    expect(message(() => spanSearchRequest({ text: 'a', fromUs: 0, direction: 'up' }))).toMatch(/^request\.direction: expected 'next' or 'previous'/);
    expect(message(() => spanSearchRequest(null))).toMatch(/^request:/);
    expect(message(() => spanAreaRequest({ startUs: 5, endUs: 5, lanes: [] }))).toMatch(/^request\.endUs: must be after startUs/);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes: 'engine:1' }))).toMatch(/^request\.lanes:/);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes: ['ok', 7] }))).toMatch(/^request\.lanes\[1\]:/);
  });

  it('bounds how many lanes one area may name', () => {
    const lanes = Array.from({ length: MAX_AREA_LANES + 1 }, (_, i) => `engine:${i}`);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes }))).toMatch(/at most 4096 lane ids/);
  });
});

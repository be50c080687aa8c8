import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeNpyFloat64, parseNpy } from '../../data';
import { RowFileReader, RowFileWriter } from './rowFiles';

const dir = mkdtempSync(join(tmpdir(), 'kde-rowfiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const values = (rows: number, cols: number, from: number): Float32Array => Float32Array.from({ length: rows * cols }, (_, i) => from + i);

describe('row files', () => {
  it('writes windows in any order and reads any rows back, as one .npy NumPy can read', async () => {
    const file = join(dir, 'a.npy');
    const w = await RowFileWriter.create(file, 5, 3);
    await w.write(3, values(2, 3, 9));
    await w.write(0, values(3, 3, 0));
    expect(existsSync(file)).toBe(false);
    await w.finish();
    const whole = parseNpy(new Uint8Array(readFileSync(file)));
    expect(whole.shape).toEqual([5, 3]);
    expect(Array.from(whole.data as Float64Array)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    const r = await RowFileReader.open(file);
    expect([r.rows, r.cols]).toEqual([5, 3]);
    expect(Array.from(await r.read(2, 2))).toEqual([6, 7, 8, 9, 10, 11]);
    await expect(r.read(4, 2)).rejects.toThrow(/outside/);
    await r.close();
  });

  it('keeps the partial file of a stopped write and writes 1-D files for one column', async () => {
    const file = join(dir, 'b.npy');
    const w = await RowFileWriter.create(file, 4, 1);
    await w.write(0, values(2, 1, 1));
    await w.abandon();
    expect(existsSync(`${file}.partial`)).toBe(true);
    const done = await RowFileWriter.create(join(dir, 'c.npy'), 4, 1);
    await done.write(0, values(4, 1, 1));
    await done.finish();
    expect(parseNpy(new Uint8Array(readFileSync(join(dir, 'c.npy')))).shape).toEqual([4]);
  });

  it('refuses a file that is not float32 or is cut short, naming it', async () => {
    const f64 = join(dir, 'f64.npy');
    writeFileSync(f64, encodeNpyFloat64([2, 2], new Float64Array(4)));
    await expect(RowFileReader.open(f64)).rejects.toThrow(/f64\.npy is not a little-endian C-order float32/);
    const cut = join(dir, 'cut.npy');
    const w = await RowFileWriter.create(cut, 10, 10);
    await w.finish();
    writeFileSync(cut, readFileSync(cut).subarray(0, 200));
    await expect(RowFileReader.open(cut)).rejects.toThrow(/cut\.npy is shorter than its header/);
  });
});

import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { checkNpyHeader, MAX_NPY_ELEMENTS, parseNpy, parseNpyHeader } from './npy';
import { encodeNpyFloat32 } from '../writers';
import { f8, makeNpy } from '../testing';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : `not an AppError: ${String(e)}`;
  }
  return undefined;
}

describe('parseNpy numbers', () => {
  const values = [1.5, -2.25, 3, 1e10, -0.125, 7];
  for (const descr of ['<f8', '>f8', '<f4', '>f4']) {
    it(`reads ${descr}`, () => {
      const a = parseNpy(makeNpy({ descr, shape: [2, 3], values }));
      expect(a.shape).toEqual([2, 3]);
      expect(a.data).toBeInstanceOf(Float64Array);
      expect(Array.from(a.data as Float64Array)).toEqual(values);
      expect(a.bigEndian).toBe(descr[0] === '>');
    });
  }

  const ints: Record<string, number[]> = {
    i1: [-128, 0, 127], i2: [-32768, 5, 32767], i4: [-2147483648, 9, 2147483647], i8: [-(2 ** 53), 0, 2 ** 53],
    u2: [0, 1, 65535], u4: [0, 7, 4294967295], u8: [0, 3, 2 ** 53],
  };
  for (const [t, vals] of Object.entries(ints)) {
    for (const order of ['<', '>']) {
      it(`reads ${order}${t}`, () => {
        const values = t.endsWith('8') ? vals.map((v) => BigInt(v)) : vals;
        const a = parseNpy(makeNpy({ descr: `${order}${t}`, shape: [3], values }));
        expect(Array.from(a.data as Float64Array)).toEqual(vals);
        expect(a.dtype.kind).toBe(t[0] === 'i' ? 'int' : 'uint');
      });
    }
  }

  it('keeps u1 and bool as raw bytes', () => {
    const u = parseNpy(makeNpy({ descr: '|u1', shape: [3], values: [0, 200, 255] }));
    expect(u.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(u.data as Uint8Array)).toEqual([0, 200, 255]);
    const b = parseNpy(makeNpy({ descr: '|b1', shape: [4], values: [true, false, false, true] }));
    expect(b.dtype.kind).toBe('bool');
    expect(Array.from(b.data as Uint8Array)).toEqual([1, 0, 0, 1]);
  });

  it('reads a 0-d scalar', () => {
    const a = parseNpy(makeNpy({ descr: '<f8', shape: [], values: [24] }));
    expect(a.shape).toEqual([]);
    expect(Array.from(a.data as Float64Array)).toEqual([24]);
  });

  it('reads header versions 2 and 3', () => {
    for (const version of [2, 3] as const) {
      const a = parseNpy(makeNpy({ descr: '<f8', shape: [2], values: [4, 5], version }));
      expect(Array.from(a.data as Float64Array)).toEqual([4, 5]);
    }
  });
});

describe('parseNpy layout', () => {
  it('transposes Fortran order to C order (2-D)', () => {
    const a = parseNpy(makeNpy({ descr: '<f8', shape: [3, 2], values: [1, 2, 3, 4, 5, 6], fortran: true }));
    expect(a.fortranOrder).toBe(true);
    expect(Array.from(a.data as Float64Array)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('transposes Fortran order to C order (3-D, big-endian int)', () => {
    const values = Array.from({ length: 24 }, (_, i) => i * 3 - 7);
    const a = parseNpy(makeNpy({ descr: '>i4', shape: [2, 3, 4], values, fortran: true }));
    expect(Array.from(a.data as Float64Array)).toEqual(values);
  });

  it('reads unicode strings of both byte orders, scalar and 1-D', () => {
    expect(parseNpy(makeNpy({ descr: '<U7', shape: [2], values: ['tet07', 'café'] })).data).toEqual(['tet07', 'café']);
    expect(parseNpy(makeNpy({ descr: '>U3', shape: [2], values: ['ab', 'x𝄞'] })).data).toEqual(['ab', 'x𝄞']);
    const scalar = parseNpy(makeNpy({ descr: '<U17', shape: [], values: ['clusterless-npz/1'] }));
    expect(scalar.data).toEqual(['clusterless-npz/1']);
  });

  it('reads Fortran-order string matrices', () => {
    const a = parseNpy(makeNpy({ descr: '<U1', shape: [2, 2], values: ['a', 'b', 'c', 'd'], fortran: true }));
    expect(a.data).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('parseNpy refusals', () => {
  it('refuses object arrays with E060 naming the key', () => {
    const bytes = makeNpy({ descr: '|O', shape: [2], values: [], header: "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }" });
    expect(codeOf(() => parseNpy(bytes, { key: 'spike_times' }))).toBe('E060');
    expect(() => parseNpy(bytes, { file: 'x.npz', key: 'spike_times' })).toThrow(/x\.npz: 'spike_times' is a NumPy object array/);
  });

  it('refuses complex, float16 and structured dtypes with E061', () => {
    expect(codeOf(() => parseNpy(makeNpy({ descr: '<c16', shape: [0], values: [], header: "{'descr': '<c16', 'fortran_order': False, 'shape': (0,), }" })))).toBe('E061');
    expect(() => parseNpy(makeNpy({ descr: '<c16', shape: [0], values: [], header: "{'descr': '<c16', 'fortran_order': False, 'shape': (0,), }" }), { key: 'position' }))
      .toThrow(/'position' has dtype complex128/);
    expect(codeOf(() => parseNpy(makeNpy({ descr: '<f2', shape: [0], values: [], header: "{'descr': '<f2', 'fortran_order': False, 'shape': (0,), }" })))).toBe('E061');
    expect(codeOf(() => parseNpy(makeNpy({ descr: '', shape: [0], values: [], header: "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (0,), }" })))).toBe('E061');
  });

  it('reports unreadable bytes as E090', () => {
    expect(codeOf(() => parseNpy(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])))).toBe('E090');
    const full = makeNpy({ descr: '<f8', shape: [4], values: [1, 2, 3, 4] });
    expect(codeOf(() => parseNpy(full.subarray(0, full.length - 5)))).toBe('E090');
    expect(codeOf(() => parseNpy(full.subarray(0, 20)))).toBe('E090');
    const noShape = makeNpy({ descr: '<f8', shape: [0], values: [], header: "{'descr': '<f8', 'fortran_order': False}" });
    expect(codeOf(() => parseNpy(noShape))).toBe('E090');
  });
});

describe('encodeNpyFloat32', () => {
  it('writes a C-order little-endian float32 array that parses back', () => {
    const data = new Float64Array([1, -2.5, 3.25, Number.NaN, -Infinity, 1e-3]);
    const bytes = encodeNpyFloat32([2, 3], data);
    // NumPy aligns the data to 64 bytes
    expect((bytes.length - 24) % 64).toBe(0);
    const headerLength = new DataView(bytes.buffer).getUint16(8, true);
    expect((10 + headerLength) % 64).toBe(0);
    const text = new TextDecoder().decode(bytes.subarray(10, 10 + headerLength));
    expect(text).toContain("'descr': '<f4'");
    expect(text).toContain("'shape': (2, 3)");
    expect(text.endsWith('\n')).toBe(true);
    const back = parseNpy(bytes);
    expect(back.shape).toEqual([2, 3]);
    expect(back.dtype.descr).toBe('<f4');
    expect(Array.from(back.data as Float64Array)).toEqual(Array.from(Float32Array.from(data)));
  });

  it('writes 1-D shapes with a trailing comma and rejects a wrong size', () => {
    const bytes = encodeNpyFloat32([3], new Float32Array([1, 2, 3]));
    expect(new TextDecoder().decode(bytes.subarray(10, 80))).toContain("'shape': (3,)");
    expect(() => encodeNpyFloat32([2, 2], new Float32Array(3))).toThrow(AppError);
  });
});

describe('parseNpy on a Node Buffer', () => {
  it('reads a member that does not start the Buffer (Buffer.slice is a view, not a copy)', () => {
    const values = Float32Array.from({ length: 1200 }, (_, i) => i * 0.5);
    const npy = encodeNpyFloat32([40, 30], values);
    // the member sits 24 bytes into a larger Buffer, as a member of a zip read whole would
    const buf = Buffer.alloc(npy.length + 64);
    buf.set(npy, 24);
    const parsed = parseNpy(buf.subarray(24, 24 + npy.length));
    expect(Array.from(parsed.data as Float64Array)).toEqual(Array.from(values));
  });
});

describe('declared sizes are checked before allocation', () => {
  it('refuses a header declaring more data than the bytes hold, and huge string arrays', async () => {
    const { checkNpyHeader, parseNpyHeader, MAX_NPY_STRINGS } = await import('./npy');
    const big = makeNpy({ descr: '<f8', shape: [2, 100_000_000], values: [], header: "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 100000000), }" });
    expect(() => parseNpy(big, { file: 'l.npy' })).toThrow(/l.npy: array is truncated: shape \(2, 100000000\) needs 1600000000 data bytes/);
    const names = makeNpy({ descr: '<U1', shape: [0], values: [], header: `{'descr': '<U1', 'fortran_order': False, 'shape': (${MAX_NPY_STRINGS + 1},), }` });
    expect(() => checkNpyHeader(parseNpyHeader(names), 2 ** 40, { file: 'd.npz', key: 'electrode_names' })).toThrow(/d.npz: 'electrode_names' is a string array of 1000001 items/);
  });

  it('caps a string array\'s total size, and with exact refuses bytes beyond the declared array', async () => {
    const { checkNpyHeader, parseNpyHeader, MAX_NPY_STRING_BYTES } = await import('./npy');
    const wide = makeNpy({ descr: '<U4096', shape: [0], values: [], header: "{'descr': '<U4096', 'fortran_order': False, 'shape': (5000,), }" });
    expect(5000 * 4096 * 4).toBeGreaterThan(MAX_NPY_STRING_BYTES);
    expect(() => checkNpyHeader(parseNpyHeader(wide), 2 ** 40, { file: 'd.npz', key: 'labels' })).toThrow(/d.npz: 'labels' is a string array of 5000 items of <U4096 \(81920000 bytes\)/);
    const three = f8([1, 2, 3]);
    expect(checkNpyHeader(parseNpyHeader(three), three.length, {}, true)).toBe(3);
    expect(() => checkNpyHeader(parseNpyHeader(three), three.length + 8, { file: 'p.npz', key: 'x' }, true)).toThrow(/p.npz: 'x' holds \d+ bytes but its header \(<f8, shape \(3\)\) declares/);
  });
});

describe('checkNpyHeader', () => {
  it('refuses an array more values than half the memory holds as float64, naming it, before anything is read', () => {
    const header = parseNpyHeader(encodeNpyFloat32([2], Float32Array.of(1, 2)));
    const huge = { ...header, shape: [2, MAX_NPY_ELEMENTS] };
    expect(() => checkNpyHeader(huge, Number.MAX_SAFE_INTEGER, { file: 'rec.npz', key: 'spike_times_3' })).toThrow(
      /rec\.npz.*spike_times_3.*declares shape \(2, \d+\): \d+ values, more than the \d+ this machine's memory holds/,
    );
    expect(checkNpyHeader({ ...header, shape: [MAX_NPY_ELEMENTS] }, Number.MAX_SAFE_INTEGER)).toBe(MAX_NPY_ELEMENTS);
  });
});

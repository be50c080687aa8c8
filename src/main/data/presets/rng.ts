/**
 * A seeded random stream for the synthetic presets: xoshiro128** (128-bit state held in four 32-bit
 * words, so it runs on plain int32 arithmetic), seeded through SplitMix64. Same distributions as
 * NumPy's generator, not the same numbers.
 */

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64 step: spreads a small seed over the whole state so nearby seeds give unrelated streams. */
function splitMix64(state: bigint): [bigint, bigint] {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [next, z ^ (z >> 31n)];
}

/** ln(k!) exactly summed for small k, Stirling's series beyond (error < 1e-15 there). */
const LOG_FACTORIAL_SMALL = (() => {
  const t = new Float64Array(128);
  for (let k = 2; k < 128; k++) t[k] = t[k - 1]! + Math.log(k);
  return t;
})();

export function logFactorial(k: number): number {
  if (k < 128) return LOG_FACTORIAL_SMALL[k]!;
  const n = k + 1;
  const inv = 1 / n;
  const inv2 = inv * inv;
  return (n - 0.5) * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI) + inv * (1 / 12 - inv2 * (1 / 360 - inv2 / 1260));
}

export class Rng {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    let st = BigInt.asUintN(64, BigInt(Math.trunc(seed)));
    const words: number[] = [];
    for (let i = 0; i < 2; i++) {
      const [next, out] = splitMix64(st);
      st = next;
      words.push(Number(out & 0xffffffffn), Number(out >> 32n));
    }
    [this.s0, this.s1, this.s2, this.s3] = words as [number, number, number, number];
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** next 32 random bits as an unsigned integer */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** uniform on [0, 1) with 53 random bits */
  random(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.random();
  }

  /** standard normal by Marsaglia's polar method (pairs; the second is kept for the next call) */
  normal(): number {
    if (this.spareNormal !== null) {
      const v = this.spareNormal;
      this.spareNormal = null;
      return v;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.random() - 1;
      v = 2 * this.random() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return u * f;
  }

  /** Poisson: multiplication (inversion) for small means, Hörmann's PTRS rejection for mean ≥ 10 */
  poisson(mean: number): number {
    if (!(mean >= 0) || !Number.isFinite(mean)) throw new RangeError(`poisson mean must be finite and ≥ 0, got ${mean}`);
    if (mean === 0) return 0;
    if (mean < 10) {
      const limit = Math.exp(-mean);
      let k = 0;
      let p = this.random();
      while (p > limit) {
        k++;
        p *= this.random();
      }
      return k;
    }
    return this.poissonPtrs(mean);
  }

  private poissonPtrs(mean: number): number {
    const sqrtMean = Math.sqrt(mean);
    const logMean = Math.log(mean);
    const b = 0.931 + 2.53 * sqrtMean;
    const a = -0.059 + 0.02483 * b;
    const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
    const vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const u = this.random() - 0.5;
      const v = this.random();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      const lhs = Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b);
      if (lhs <= -mean + k * logMean - logFactorial(k)) return k;
    }
  }
}

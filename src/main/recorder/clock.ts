/**
 * One time base for the service and the engine process.
 *
 * `process.hrtime.bigint()` reads a machine-wide monotonic clock: CLOCK_MONOTONIC on Linux,
 * mach_absolute_time on macOS, QueryPerformanceCounter on Windows (libuv's uv_hrtime). Two
 * processes on one machine therefore read the same clock, so the service takes `originNs` at the
 * start of a run and hands it to the engine (as a decimal string: bigint does not survive JSON),
 * and both produce microseconds since that origin with no further agreement needed.
 *
 * Where that assumption could break (a recorder on another machine, a sandbox with its own
 * clock), `estimateClockOffsetNs` turns one ping round trip into an offset, NTP style, that the
 * recorder adds to its timestamps.
 */

export type MonotonicNowNs = () => bigint;

export const hrtimeNowNs: MonotonicNowNs = () => process.hrtime.bigint();

/** Accepts the origin as a bigint or its decimal string form (how it crosses a process boundary). */
export function parseOriginNs(origin: bigint | string | undefined, now: MonotonicNowNs = hrtimeNowNs): bigint {
  if (origin === undefined) return now();
  if (typeof origin === 'bigint') return origin;
  if (!/^\d+$/.test(origin)) throw new TypeError(`clock origin must be a decimal integer string, got ${JSON.stringify(origin)}`);
  return BigInt(origin);
}

/**
 * Offset to add to local times to land on the peer's clock, from one round trip: we sent at
 * `localSentNs`, the peer answered with its clock reading `peerNs`, we received at `localReceivedNs`.
 * Assumes the two legs take equal time; the error is at most half the round trip.
 */
export function estimateClockOffsetNs(localSentNs: bigint, peerNs: bigint, localReceivedNs: bigint): bigint {
  const midpoint = localSentNs + (localReceivedNs - localSentNs) / 2n;
  return peerNs - midpoint;
}

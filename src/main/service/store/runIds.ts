/**
 * Minting run ids (the rule itself is shared/runIds.ts): the creation time in UTC, then random hex.
 */
import { randomBytes } from 'node:crypto';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** e.g. 20250101-120000-a1b2c3 (UTC) */
export function newRunId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomBytes(3).toString('hex')}`;
}

/**
 * Run ids: sortable by creation time, safe as folder names, and checked strictly wherever one
 * arrives from outside (IPC, WebSocket, CLI), so an id can never name a path outside the runs folder.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';

export const RUN_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** e.g. 20250101-120000-a1b2c3 (UTC) */
export function newRunId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomBytes(3).toString('hex')}`;
}

export function isRunId(v: unknown): v is string {
  return typeof v === 'string' && RUN_ID_PATTERN.test(v);
}

export function assertRunId(v: unknown, key = 'runId'): string {
  if (!isRunId(v)) {
    const shown = typeof v === 'string' ? JSON.stringify(v.slice(0, 60)) : typeof v;
    throw new AppError('BAD_ARGUMENT', `${key}: expected a run id like 20250101-120000-a1b2c3, got ${shown}`, { key });
  }
  return v;
}

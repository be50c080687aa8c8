/**
 * Run progress on stderr, only once a run has taken longer than a second: one line rewritten in
 * place on a terminal, otherwise a plain line every few seconds (logs of CI and cluster jobs).
 */
import { ERASE_LINE } from './terminalStream';
import type { ProgressInfo } from '../../shared/events';

const QUIET_MS = 1000;
const PLAIN_INTERVAL_MS = 5000;

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function formatProgress(p: ProgressInfo): string {
  const pct = `${Math.floor(p.fraction * 100)}`.padStart(3, ' ');
  const eta = p.etaMs !== undefined ? ` · ${seconds(p.etaMs)} left` : '';
  return `[${pct}%] ${p.label}${eta} (${seconds(p.elapsedMs)} elapsed)`;
}

export class ProgressLine {
  private readonly startMs = Date.now();
  private lastPlainMs = 0;
  private drawn = false;

  constructor(private readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }) {}

  update(p: ProgressInfo): void {
    const now = Date.now();
    if (now - this.startMs < QUIET_MS) return;
    const text = formatProgress(p);
    if (this.out.isTTY) {
      const width = Math.max(20, (this.out.columns ?? 100) - 1);
      this.out.write(`${ERASE_LINE}${text.slice(0, width)}`);
      this.drawn = true;
    } else if (now - this.lastPlainMs >= PLAIN_INTERVAL_MS) {
      this.lastPlainMs = now;
      this.out.write(`${text}\n`);
    }
  }

  /** Clears the live line so that what follows starts on a clean line. */
  done(): void {
    if (this.drawn) this.out.write(ERASE_LINE);
    this.drawn = false;
  }
}

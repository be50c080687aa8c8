/**
 * Run progress on stderr, only once a run has taken longer than a second: one line rewritten in
 * place on a terminal, otherwise a plain line every few seconds (logs of CI and cluster jobs).
 */
import { ERASE_LINE } from './terminalStream';
import type { ProgressInfo } from '../../shared/events';
import { formatWallTime, readProgress, timeLeftText } from '../../shared/progress';

const QUIET_MS = 1000;
const PLAIN_INTERVAL_MS = 5000;

/**
 * The line as the app's bar reads the same progress (shared/progress.ts): "[ 45 %] logsumexp ·
 * repeat 13 · about 51 s left (2 min 10 s elapsed)"; where no time can be told yet, what is counted
 * instead: "[3 of 17 steps] reference · cold (4 s elapsed)".
 */
export function formatProgress(p: ProgressInfo): string {
  const reading = readProgress(p);
  // a percentage keeps its width, so the line does not jitter as it is rewritten
  const share = reading.percent === null ? reading.share : reading.share.padStart(5, ' ');
  const left = timeLeftText(reading.etaMs);
  return `[${share}] ${p.label}${left ? ` · ${left}` : ''} (${formatWallTime(p.elapsedMs) || '0 s'} elapsed)`;
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

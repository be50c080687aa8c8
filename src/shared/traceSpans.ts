/**
 * The names of the engine's repeated spans and the args that tell one from another. A span's name
 * stays the same on every call (an electrode, a block, a batch of windows), so a trace viewer's
 * aggregation and the stage table count them as one stage; which electrode, block or window it
 * was travels in its args. Runs recorded before that named them "electrode 3", "block 0",
 * "windows 0–14": readers here still understand those names.
 */

export const ELECTRODE_SPAN = 'electrode';
export const BLOCK_SPAN = 'block';
export const CHUNK_SPAN = 'chunk';
export const WINDOWS_SPAN = 'windows';
export const STRATEGY_SPAN = 'strategy';
export const REPEAT_SPAN = 'repeat';
export const WARMUP_SPAN = 'warmup';

/** the arg holding an electrode span's position in the dataset (its `electrode` arg is the name) */
export const ELECTRODE_INDEX_ARG = 'electrodeIndex';
/** the arg holding the dataset's name of the electrode */
export const ELECTRODE_NAME_ARG = 'electrode';

const LEGACY_ELECTRODE_NAME = /^electrode (\d+)$/;

/** The electrode index a span stands for, or -1 when it is not an electrode span. */
export function electrodeIndexOf(name: string, args: Record<string, unknown> | undefined): number {
  if (name === ELECTRODE_SPAN) {
    const index = args?.[ELECTRODE_INDEX_ARG];
    return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : -1;
  }
  const legacy = LEGACY_ELECTRODE_NAME.exec(name);
  return legacy ? Number(legacy[1]) : -1;
}

/** The dataset's name an electrode span carries, if it carries one. */
export function electrodeNameOf(args: Record<string, unknown> | undefined): string | undefined {
  const name = args?.[ELECTRODE_NAME_ARG];
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * What a person reads for electrode `index`: the dataset's name for it, as Results and Data show
 * it; "electrode 3" only where the trace did not carry the name (runs recorded before it did).
 */
export function electrodeLabel(index: number, name: string | undefined): string {
  return name ?? `electrode ${index}`;
}

/** The args of electrode e's span: its index and the dataset's name for it, with whatever else the caller adds. */
export function electrodeArgs(index: number, name: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { [ELECTRODE_INDEX_ARG]: index, [ELECTRODE_NAME_ARG]: name, ...more };
}

/** spans whose arg of the same name says which one they were (`block` 3, `strategy` compensated) */
const NAMED_BY_ARG: ReadonlySet<string> = new Set([ELECTRODE_SPAN, BLOCK_SPAN, CHUNK_SPAN, STRATEGY_SPAN, REPEAT_SPAN, WARMUP_SPAN]);

/** Whether spans of this name may read differently from their name (spanLabel depends on their args). */
export function isLabelledSpan(name: string): boolean {
  return NAMED_BY_ARG.has(name) || name === WINDOWS_SPAN;
}

/**
 * What a person reads for a span: its name and which one it was ("block 3", "electrode tet03",
 * "windows 0–14"), from its args. Spans of other names, and older numbered names, read as named.
 */
export function spanLabel(name: string, args: Record<string, unknown> | undefined): string {
  if (name === WINDOWS_SPAN) {
    const [first, last] = [args?.firstWindow, args?.lastWindow];
    if (typeof first !== 'number' || typeof last !== 'number') return name;
    return first === last ? `window ${first}` : `windows ${first}–${last}`;
  }
  if (!NAMED_BY_ARG.has(name)) return name;
  const which = args?.[name];
  return typeof which === 'number' || (typeof which === 'string' && which !== '') ? `${name} ${which}` : name;
}

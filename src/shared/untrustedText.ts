/**
 * Text from a data file (its name, its electrodes' names, what an NWB file says of itself) is
 * data wherever it is shown: never markup in report.md, never a formula in report.csv, never a
 * control sequence on a terminal. These turn such text into what only shows.
 */

/**
 * Characters that act rather than show: C0 controls (tab and newline aside, which callers
 * decide on), DEL, C1 controls, and the bidirectional marks, embeddings, overrides and isolates
 * that reorder what follows them on screen.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's purpose
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The escape a reader sees for an acting character: \u202e, as JSON writes it (inside a JSON string it means the same character). */
function shown(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Every acting character written as its escape; tab and newline stay unless `oneLine`. */
export function showControls(text: string, oneLine = false): string {
  const replaced = text.replace(ACTING, shown);
  return oneLine ? replaced.replace(/[\t\n]/g, shown) : replaced;
}

/**
 * Text for the terminal: acting characters escaped, except the sequences the CLI itself writes
 * (`keep`, each passed through whole, such as the progress line's return and erase).
 */
export function terminalText(text: string, keep: readonly string[] = []): string {
  if (keep.length === 0) return showControls(text).replace(/\r/g, shown);
  let out = '';
  let rest = text;
  for (;;) {
    let at = -1;
    let which = '';
    for (const k of keep) {
      const i = rest.indexOf(k);
      if (i >= 0 && (at < 0 || i < at)) [at, which] = [i, k];
    }
    if (at < 0) return out + terminalText(rest);
    out += terminalText(rest.slice(0, at)) + which;
    rest = rest.slice(at + which.length);
  }
}

/**
 * Markdown that shows as text: what would start HTML (`<`), an entity (`&name;`) or a link or
 * image (`](`, `][`) backslash-escaped, acting characters shown as escapes. Applied to the whole
 * report, whose own text uses none of these; newlines are kept (the caller keeps data on one line).
 */
export function markdownText(text: string): string {
  return showControls(text)
    .replace(/</g, '\\<')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    .replace(/\](?=[([])/g, '\\]');
}

/** One line of data inside Markdown: line breaks as spaces, so a name cannot start a heading or a list. */
export function markdownLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/**
 * A CSV cell that a spreadsheet reads as text, not as a formula (OWASP's rule for CSV
 * injection): a text starting with =, +, -, @, tab or return gets a leading quote. Numbers
 * written as numbers are left alone.
 */
export function csvText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[-+]?(\d+\.?\d*(e[-+]?\d+)?|Infinity)$/i.test(text) ? `'${text}` : text;
}

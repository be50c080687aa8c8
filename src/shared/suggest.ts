/**
 * "did you mean": the closest of the names known (a command's flags, the strategies a run accepts)
 * to what a person typed, by edit distance (a swap of two neighbouring letters counts as one edit,
 * as typing slips usually are). A name that is far from all of them gets no suggestion: a wrong
 * guess misleads more than none. In the contract, so a check of the contract can suggest too.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate nearest to `word`, if near enough: within a third of its length (at least one
 * edit), or one that `word` is the start of (`--save` → `--save-likelihood`).
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(w, name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  if (best) return best.name;
  const prefixed = candidates.filter((name) => w.length >= 3 && name.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean X?` with the closest candidate shown as `show` writes it, or '' when none is near. */
export function didYouMean(word: string, candidates: readonly string[], show: (name: string) => string = (n) => n): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean ${show(near)}?`;
}

/**
 * The page's import table is the lint's: docs/architecture.md's "Who may import whom" lists every
 * row of BOUNDARIES (eslint-rules/boundaryTable.js) with the same allow-list, so a reader of the
 * page reads what the rule checks. A row's first cell names its key in code marks; its second cell
 * names the allow-list besides the folder itself, one code mark an entry, and says "types only"
 * where the row lets electron in for its types alone. Words outside code marks are notes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECTION = '## Who may import whom';

interface Constraint {
  allow?: string[];
  deny?: string[];
  typeOnlyAllowed?: boolean;
}

interface PageRow {
  key: string;
  /** the second cell's code marks, in the page's order */
  entries: string[];
  typesOnly: boolean;
}

/** What a folder's row says, in the form the page writes it: its allow-list less the folder itself. */
interface TableRow {
  entries: string[];
  typesOnly: boolean;
}

const codeMarks = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The rows of the section's table, after its header and separator; the page's other tables are not read. */
function pageRows(markdown: string): PageRow[] {
  const start = markdown.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${SECTION}"`);
  const rest = markdown.slice(start + SECTION.length);
  const next = rest.indexOf('\n## ');
  const section = next < 0 ? rest : rest.slice(0, next);
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => {
    const cells = line.split('|').slice(1, -1);
    if (cells.length !== 2) throw new Error(`a row of the page's import table has ${cells.length} cells, not 2: ${line}`);
    const keys = codeMarks(cells[0]!);
    if (keys.length !== 1) throw new Error(`a row's first cell names ${keys.length} keys in code marks, not 1: ${line}`);
    return { key: keys[0]!, entries: codeMarks(cells[1]!), typesOnly: /types only/.test(cells[1]!) };
  });
}

function tableRows(boundaries: Record<string, Constraint[]>): Map<string, TableRow> {
  return new Map(Object.entries(boundaries).map(([key, constraints]) => {
    const allow = constraints.find((c) => c.allow)?.allow ?? [];
    return [key, { entries: allow.filter((entry) => entry !== key), typesOnly: constraints.some((c) => c.typeOnlyAllowed === true) }];
  }));
}

const sorted = (values: readonly string[]): string[] => [...values].sort();

describe('the page\'s import table and the lint\'s', () => {
  let page: PageRow[];
  let table: Map<string, TableRow>;

  beforeAll(async () => {
    page = pageRows(readFileSync(`${REPO_ROOT}docs/architecture.md`, 'utf8'));
    const { BOUNDARIES } = (await import(pathToFileURL(`${REPO_ROOT}eslint-rules/boundaryTable.js`).href)) as { BOUNDARIES: Record<string, Constraint[]> };
    table = tableRows(BOUNDARIES);
  });

  it('reads a table of rows from both', () => {
    expect(page.length).toBeGreaterThan(20);
    expect(table.size).toBeGreaterThan(20);
  });

  it('have the same rows, each once on the page', () => {
    const onPage = page.map((row) => row.key);
    expect(onPage.filter((key, i) => onPage.indexOf(key) !== i), 'rows the page lists twice').toEqual([]);
    expect([...table.keys()].filter((key) => !onPage.includes(key)), 'rows of BOUNDARIES missing from the page').toEqual([]);
    expect(onPage.filter((key) => !table.has(key)), 'rows of the page missing from BOUNDARIES').toEqual([]);
  });

  it('give every row the same allow-list', () => {
    for (const row of page) {
      const expected = table.get(row.key);
      if (!expected) continue;
      expect(row.entries.filter((entry, i) => row.entries.indexOf(entry) !== i), `${row.key}: entries the page names twice`).toEqual([]);
      expect(sorted(row.entries), `${row.key}: the page's allow-list against BOUNDARIES'`).toEqual(sorted(expected.entries));
    }
  });

  it('say "types only" exactly where a row lets electron in for its types alone', () => {
    const says = page.filter((row) => row.typesOnly).map((row) => row.key);
    const lets = [...table].filter(([, row]) => row.typesOnly).map(([key]) => key);
    expect(sorted(says)).toEqual(sorted(lets));
    expect(lets.length).toBeGreaterThan(0);
  });

  it('fails on a page whose row differs from the lint\'s', () => {
    const drifted = pageRows(`${SECTION}\n\n| a | b |\n|---|---|\n| \`src/main/workers\` | \`node:*\`, \`src/shared\` |\n`);
    expect(sorted(drifted[0]!.entries)).not.toEqual(sorted(table.get('src/main/workers')!.entries));
    expect(() => pageRows(`${SECTION}\n\n| a | b |\n|---|---|\n| workers | \`node:*\` |\n`)).toThrow(/names 0 keys/);
  });
});

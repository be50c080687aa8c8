/**
 * README.md and the pages under docs/ against what exists: every `kde-profiler COMMAND` they show
 * is a command the CLI has, with only flags that command parses; every `npm run SCRIPT` is a
 * script of package.json; docs/reference.md has a section for every command naming each of its
 * flags; and README's test command is the one .ci/run ends with. A page that names a command, flag
 * or script that does not exist fails here instead of misleading the person who copies it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/main/cli/commands';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string): string => readFileSync(`${ROOT}${path}`, 'utf8');
const PAGES = ['README.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** `--name` tokens; a letter or digit after the dashes, so a bare `--` separator is no flag */
const FLAG = /(?<![\w-])--([a-z0-9][a-z0-9-]*)/g;
/** what the top level takes besides a command */
const TOP_LEVEL_FLAGS = new Set(['help', 'version']);
/** `slurm` hands what follows its bare `--` to `run` */
const PASSES_TO: Record<string, string> = { slurm: 'run' };

/** The text a reader would copy: fenced blocks line by line (continuations joined, comments cut) and inline code spans. */
function codeSnippets(markdown: string): string[] {
  const snippets: string[] = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```[^\n]*$/gm, (_, block: string) => {
    const lines = block.replace(/\\\n/g, ' ').split('\n');
    snippets.push(...lines.map((line) => line.replace(/(^|\s)#.*$/, '')));
    return '';
  });
  for (const m of prose.matchAll(/`([^`]+)`/g)) snippets.push(m[1]!.replace(/\s+/g, ' '));
  return snippets;
}

interface Invocation {
  /** the word after `kde-profiler` */
  command: string;
  /** the flags after it, and those after a bare `--` */
  flags: string[];
  passed: string[];
  text: string;
}

/** Each `kde-profiler WORD …` of a snippet, up to the next one; quoted text (a `cmd:` engine's own flags) is not read. */
function invocations(snippet: string): Invocation[] {
  const unquoted = snippet.replace(/'[^']*'|"[^"]*"/g, "''");
  const starts = [...unquoted.matchAll(/(?<![\w-])kde-profiler\s+(?=\S)/g)].map((m) => m.index!);
  return starts.map((start, i) => {
    const text = unquoted.slice(start, starts[i + 1] ?? unquoted.length).replace(/\s*(&&|;|\|\|).*$/, '');
    const [, command = '', ...rest] = text.trim().split(/\s+/);
    const tail = rest.join(' ');
    const dash = tail.search(/(^|\s)--(\s|$)/);
    const own = dash < 0 ? tail : tail.slice(0, dash);
    const passed = dash < 0 ? '' : tail.slice(dash);
    const flagsOf = (t: string) => [...t.matchAll(FLAG)].map((m) => m[1]!);
    return { command: command.startsWith('--') ? '' : command, flags: flagsOf(command.startsWith('--') ? `${command} ${own}` : own), passed: flagsOf(passed), text };
  });
}

/** What is wrong with one invocation, or nothing. A word in capitals (`kde-profiler COMMAND --help`) stands for any command. */
function problemsOf(inv: Invocation): string[] {
  const anyCommand = /^[A-Z_]+$/.test(inv.command);
  if (inv.command === '') return inv.flags.filter((f) => !TOP_LEVEL_FLAGS.has(f)).map((f) => `kde-profiler takes no --${f}: ${inv.text}`);
  const named = inv.command.split('|');
  const unknown = anyCommand ? [] : named.filter((c) => !(c in COMMANDS));
  if (unknown.length > 0) return unknown.map((c) => `no command '${c}': ${inv.text}`);
  const problems: string[] = [];
  for (const name of anyCommand ? [] : named) {
    const known = COMMANDS[name]!.flags;
    for (const f of inv.flags) if (!(f in known)) problems.push(`${name} has no --${f}: ${inv.text}`);
    const target = PASSES_TO[name];
    const passedTo = target === undefined ? known : COMMANDS[target]!.flags;
    for (const f of inv.passed) if (!(f in passedTo)) problems.push(`${target ?? name} has no --${f}: ${inv.text}`);
  }
  if (anyCommand) problems.push(...inv.flags.filter((f) => f !== 'help').map((f) => `not every command has --${f}: ${inv.text}`));
  return problems;
}

function pageProblems(markdown: string): string[] {
  return codeSnippets(markdown).flatMap(invocations).flatMap(problemsOf);
}

describe('the kde-profiler commands the pages show', () => {
  it('are read from code the way a reader copies it', () => {
    const page = [
      'Run `kde-profiler frobnicate --data x`.',
      '```sh',
      'KDE_X=1 \\',
      '  npx kde-profiler run --data preset:tiny \\',
      "      --engine 'cmd:python3 mine.py --fast' --no-such-flag   # a comment --ignored",
      'npx kde-profiler slurm --data f.npz --shards 2 --out o -- --repeats 2 --bogus',
      '```',
    ].join('\n');
    expect(pageProblems(page)).toEqual([
      expect.stringMatching(/^run has no --no-such-flag/),
      expect.stringMatching(/^run has no --bogus/),
      expect.stringMatching(/^no command 'frobnicate'/),
    ]);
  });

  it.each(PAGES)('%s names only commands and flags that exist', (page) => {
    expect(pageProblems(read(page))).toEqual([]);
  });

  it("README's command-line block shows every command", () => {
    const readme = read('README.md');
    const block = readme.split(/^## The command line\s*$/m)[1]?.split(/^## /m)[0] ?? '';
    const shown = new Set(codeSnippets(block).flatMap(invocations).map((i) => i.command));
    expect(Object.keys(COMMANDS).filter((c) => !shown.has(c))).toEqual([]);
  });
});

describe('docs/reference.md', () => {
  const reference = read('docs/reference.md');
  const sections = new Map(reference.split(/^## /m).slice(1).map((s) => [s.slice(0, s.indexOf('\n')).trim(), s] as const));

  it.each(Object.keys(COMMANDS))('has a section for %s naming each of its flags', (name) => {
    const section = sections.get(name);
    expect(section, `docs/reference.md has no "## ${name}"`).toBeDefined();
    const named = new Set([...section!.matchAll(FLAG)].map((m) => m[1]!));
    expect(Object.keys(COMMANDS[name]!.flags).filter((f) => f !== 'help' && !named.has(f))).toEqual([]);
  });
});

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

describe('links between the pages', () => {
  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    const here = new URL(page, `file://${ROOT}`);
    const broken: string[] = [];
    const prose = read(page).replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file, anchor] = target!.split('#');
      const url = file ? new URL(file, here) : here;
      let text: string;
      try {
        text = readFileSync(url, 'utf8');
      } catch {
        broken.push(target!);
        continue;
      }
      if (anchor !== undefined && !text.split('\n').some((l) => /^#{1,6} /.test(l) && anchorOf(l.replace(/^#+ /, '')) === anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});

describe('npm scripts the pages show', () => {
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);

  it.each(PAGES)('%s names only scripts package.json has', (page) => {
    const named = codeSnippets(read(page)).flatMap((s) => [...s.matchAll(/(?<![\w-])npm run ([\w:-]+)/g)].map((m) => m[1]!));
    expect(named.filter((n) => !scripts.includes(n))).toEqual([]);
  });

  it("README's test command is the one .ci/run ends with", () => {
    const test = read('README.md').split(/^## Test\s*$/m)[1] ?? '';
    const shown = /^```[^\n]*\n([\s\S]*?)^```/m.exec(test)?.[1]?.trim();
    const ciLines = read('.ci/run').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    expect(shown).toBeDefined();
    expect(ciLines.at(-1)).toBe(shown);
  });
});

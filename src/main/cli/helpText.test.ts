/**
 * Each command's --help against the flags it parses, and README's command-line block against the
 * flags that exist: a flag added to one table and not to its usage text (or a usage text naming a
 * flag no table has) fails here instead of drifting.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands';

/** `--name` tokens; a letter or digit after the dashes, so a bare `--` separator is no flag */
const TOKEN = /(?<![\w-])--([a-z0-9][a-z0-9-]*)/g;

function tokensOf(text: string): string[] {
  return [...new Set([...text.matchAll(TOKEN)].map((m) => m[1]!))];
}

/** whole-word: `--out` is not named by `--out-dir`, nor `--shard` by `--shard-by` */
function names(text: string, flag: string): boolean {
  return new RegExp(`(?<![\\w-])--${flag.replace(/[-]/g, '\\-')}(?![\\w-])`).test(text);
}

/**
 * `slurm` passes what follows the `--` of its synopsis to `run`: tokens there are run's flags, not
 * its own, and are checked against run's table instead (so the synopsis may name run flags there).
 */
const PASSES_TO: Record<string, string> = { slurm: 'run' };

function split(name: string, usage: string): { own: string; passed: string } {
  if (!(name in PASSES_TO)) return { own: usage, passed: '' };
  const at = usage.search(/\s--(\s|$)/);
  return at < 0 ? { own: usage, passed: '' } : { own: usage.slice(0, at), passed: usage.slice(at) };
}

describe.each(Object.entries(COMMANDS))('kde-profiler %s --help', (name, command) => {
  const { own, passed } = split(name, command.usage);

  it('names every flag the command parses', () => {
    // --help is how one gets here: it needs no line of its own
    const missing = Object.keys(command.flags).filter((f) => f !== 'help' && !names(own, f));
    expect(missing).toEqual([]);
  });

  it('names no flag the command does not parse', () => {
    expect(tokensOf(own).filter((t) => !(t in command.flags))).toEqual([]);
    const target = PASSES_TO[name];
    if (target !== undefined) expect(tokensOf(passed).filter((t) => !(t in COMMANDS[target]!.flags))).toEqual([]);
  });
});

/** the fenced block under `## The command line` */
function readmeCommandLine(): string {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
  const section = readme.split(/^## The command line\s*$/m)[1];
  if (section === undefined) throw new Error('README.md has no "## The command line" section');
  const block = /^```[^\n]*\n([\s\S]*?)^```/m.exec(section);
  if (!block) throw new Error('README.md\'s "## The command line" has no fenced block');
  return block[1]!;
}

describe("README.md's command-line block", () => {
  it('names only flags some command parses', () => {
    const known = new Set(Object.values(COMMANDS).flatMap((c) => Object.keys(c.flags)));
    const block = readmeCommandLine();
    expect(block).toMatch(/kde-profiler run/);
    expect(tokensOf(block).filter((t) => !known.has(t))).toEqual([]);
  });
});

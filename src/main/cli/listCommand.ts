/**
 * `kde-profiler list`: the runs in the runs folder, newest first, with their headline times. The
 * table shows a page (the newest DEFAULT_LIMIT unless told otherwise) and says how many are left
 * and how to see them: a runs folder of a hundred thousand runs is not printed in full by default.
 * `--json` gives every run unless limited, as scripts have always read it. The table reads the
 * service's pages, as the app's Runs view does: a run that was cancelled or failed says how far it
 * got (its last progress, as its terminal last read it), a time of one first call says so rather
 * than pass for a warm median, and a run whose data file was refused before any work says so
 * (isRefusedInput), with the file's problem.
 */
import { headlineTimeText, isRefusedInput, MAX_RUN_PAGE, statusWord, type ListedRun, type RunIndexEntry } from '../../shared/api';
import type { ProgressInfo } from '../../shared/events';
import { stoppedAtText } from '../../shared/progress';
import type { ProfilerService } from '../service';
import { boolFlag, intFlag, parseFlags, refuseTogether, stringFlag } from './args';
import { withService } from './cliService';
import { EXIT, type CliCommand, type CliIo } from './cliTypes';
import { table } from './table';

const USAGE = 'kde-profiler list [--runs-dir DIR] [--json] [--limit N | --all] [--offset N]';
const OPTIONS = {
  'runs-dir': { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' }, all: { type: 'boolean' }, offset: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** runs the table shows unless told otherwise: a screenful or two */
export const DEFAULT_LIMIT = 50;

const STOPPED: ReadonlySet<string> = new Set(['cancelled', 'failed']);

interface Shown {
  /** a run that was cancelled or failed carries its last progress, where it recorded one */
  runs: ListedRun[];
  offset: number;
  total: number;
}

/** The runs from the `offset`th, `limit` of them, as the service pages them to the app: each that ended early says how far it got. */
async function listedRuns(service: ProfilerService, offset: number, limit: number): Promise<Shown> {
  const runs: ListedRun[] = [];
  for (;;) {
    const page = await service.listRunPage({ offset: offset + runs.length, limit: Math.min(MAX_RUN_PAGE, limit - runs.length) });
    runs.push(...page.runs);
    if (page.runs.length === 0 || runs.length >= limit || offset + runs.length >= page.total) return { runs, offset, total: page.total };
  }
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  refuseTogether(flags, [['limit', 'all', 'give one: --limit N lists N runs, --all lists every run']]);
  const json = boolFlag(flags, 'json');
  const limit = boolFlag(flags, 'all') ? Infinity : (intFlag(flags, 'limit', 1) ?? (json ? Infinity : DEFAULT_LIMIT));
  const offset = intFlag(flags, 'offset', 0) ?? 0;
  const { shown, runsDir } = await withService(io, stringFlag(flags, 'runs-dir'), async (service) => {
    // --json lists the entries as the store keeps them, which scripts read
    const all = json ? await service.listRuns() : undefined;
    const listed = all ? { runs: all.slice(offset, offset + limit), offset, total: all.length } : await listedRuns(service, offset, limit);
    return { shown: listed, runsDir: service.runsDir };
  });
  if (json) {
    // the stored entries, marked where the input was refused: the one test the app's lists use too
    const marked = shown.runs.map((r) => (isRefusedInput(r) ? { ...r, refused: true } : r));
    io.stdout.write(`${JSON.stringify(marked, null, 2)}\n`);
    return EXIT.ok;
  }
  if (shown.runs.length === 0) {
    io.stdout.write(shown.total === 0 ? `no runs in ${runsDir}\n` : `no runs past the ${shown.total} in ${runsDir} (--offset ${offset})\n`);
    return EXIT.ok;
  }
  writeTable(io, shown, runsDir);
  const more = pageNote(shown, limit);
  if (more !== undefined) io.stdout.write(`\n${more}\n`);
  return EXIT.ok;
}

/** "stopped at 16 % (logsumexp-tiled · repeat 3/10); " before what the run measured or why it failed */
function stoppedWords(p: ProgressInfo | undefined): string {
  return p ? `${stoppedAtText(p)}; ` : '';
}

function writeTable(io: CliIo, { runs }: Shown, runsDir: string): void {
  // a reason cut to fit the table would hide its cause (a link, a pipe, which file): each in full below
  const cut: string[] = [];
  const rows = runs.map((r) => [
    r.id,
    statusWord(r),
    r.createdAt.replace('T', ' ').slice(0, 19),
    // the label says what kind of run it is (a decode names itself there)
    r.label ? `${r.dataset} · ${r.label}` : r.dataset,
    r.backend,
    stoppedWords(r.stoppedAt) + (r.headline.length > 0
      ? r.headline.map((h) => headlineTimeText(h) ?? `${h.strategy} -`).join(', ')
      : r.error ? reasonCell(reasonOf(r), runsDir, () => cut.push(`${r.id}: ${reasonOf(r)}`))
      : STOPPED.has(r.status) ? `nothing measured (asked: ${r.strategies.join(', ')})` : r.strategies.join(', ')),
  ]);
  io.stdout.write(`${table([['id', 'status', 'created (UTC)', 'dataset', 'backend', 'warm median total / how it ended'], ...rows])}\n`);
  if (cut.length > 0) io.stdout.write(`\n${cut.join('\n')}\n`);
}

/** Which runs of how many the table showed and how to see the rest; undefined when it showed them all. */
function pageNote({ runs, offset, total }: Shown, limit: number): string | undefined {
  const end = offset + runs.length;
  if (offset === 0 && end === total) return undefined;
  const older = total - end;
  const next = older > 0 ? `; ${older} older: --offset ${end}${Number.isFinite(limit) ? ` --limit ${limit}` : ''} shows the next, --all every run` : '';
  return `runs ${offset + 1}–${end} of ${total}, newest first${next}`;
}

/** why a run ended early; a refused input's names the data's problem code, as `validate` lists it */
function reasonOf(r: RunIndexEntry): string {
  return isRefusedInput(r) ? `input refused: ${r.error!.code} ${r.error!.message}` : r.error!.message;
}

/** the reason column's width */
const REASON_COLUMN = 70;

/** A run's reason as the table shows it: paths inside the runs folder made relative, cut to the column with an ellipsis (`onCut` then). */
function reasonCell(message: string, runsDir: string, onCut: () => void): string {
  const relative = message.split(`${runsDir}/`).join('');
  if (relative.length <= REASON_COLUMN) return relative;
  onCut();
  return `${relative.slice(0, REASON_COLUMN - 1)}… (below)`;
}

export const listCommand: CliCommand = { summary: 'list the runs in the runs folder', usage: USAGE, flags: OPTIONS, run: execute };

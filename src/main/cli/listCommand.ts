/** `kde-profiler list`: the runs in the runs folder, newest first, with their headline times. */
import { formatMs } from '../../shared/format';
import { boolFlag, parseFlags, stringFlag } from './args';
import { withService } from './cliService';
import { EXIT, type CliCommand, type CliIo } from './cliTypes';
import { table } from './table';

const USAGE = 'kde-profiler list [--runs-dir DIR] [--json]';
const OPTIONS = { 'runs-dir': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const { runs, runsDir } = await withService(io, stringFlag(flags, 'runs-dir'), async (service) => ({ runs: await service.listRuns(), runsDir: service.runsDir }));
  if (boolFlag(flags, 'json')) {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return EXIT.ok;
  }
  if (runs.length === 0) {
    io.stdout.write(`no runs in ${runsDir}\n`);
    return EXIT.ok;
  }
  // a reason cut to fit the table would hide its cause (a link, a pipe, which file): each in full below
  const cut: string[] = [];
  const rows = runs.map((r) => [
    r.id,
    r.status,
    r.createdAt.replace('T', ' ').slice(0, 19),
    // the label says what kind of run it is (a decode names itself there)
    r.label ? `${r.dataset} · ${r.label}` : r.dataset,
    r.backend,
    r.headline.length > 0
      ? r.headline.map((h) => `${h.strategy} ${h.totalMedianMs !== undefined ? formatMs(h.totalMedianMs) : '-'}`).join(', ')
      : r.error ? reasonCell(r.error.message, runsDir, () => cut.push(`${r.id}: ${r.error!.message}`)) : r.strategies.join(', '),
  ]);
  io.stdout.write(`${table([['id', 'status', 'created (UTC)', 'dataset', 'backend', 'warm median total / reason'], ...rows])}\n`);
  if (cut.length > 0) io.stdout.write(`\n${cut.join('\n')}\n`);
  return EXIT.ok;
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

/**
 * The External engines section of report.md: each other implementation the run started as a child
 * process (docs/external-engines.md), what it said it is, how it ended, the peak memory of its
 * process tree, its counters and the command, in the words the app's panel uses.
 */
import type { Report, StrategyResult } from '../../shared/report';
import type { ExternalEngineInfo } from '../../shared/externalEngines';
import { commandLineText, countersText, engineComputesText, engineMemoryText, exitText, wholeDecodeText } from '../../shared/externalEngineFacts';
import { mdTable } from './format';

type ExternalResult = StrategyResult & { external: ExternalEngineInfo };

const orDash = (s: string): string => (s === '' ? '—' : s);

/** a command as code, unless a backtick in it would end the code span early */
function codeText(text: string): string {
  return text.includes('`') ? text : `\`${text}\``;
}

function factsText(info: ExternalEngineInfo['info']): string {
  return Object.entries(info).map(([k, v]) => `${k} ${String(v)}`).join(', ');
}

/** undefined when the run started no external engine, so the report of an ordinary run keeps its sections */
export function externalSection(report: Report): string | undefined {
  const rows = report.strategies.filter((s): s is ExternalResult => s.external !== undefined);
  if (rows.length === 0) return undefined;
  const out = [
    '## External engines',
    '',
    'Each engine ran as a child process on the run\'s data (docs/external-engines.md); its timings and agreement are in the tables above. ' +
      'Peak RSS is its whole process tree\'s, sampled from outside.',
    '',
    mdTable(
      ['Engine', 'Computes', 'Reports itself as', 'Version', 'Device', 'Dtype', 'Exit', 'Peak RSS', 'Counters', 'Command'],
      rows.map(({ strategy, external: e }) => [
        strategy, engineComputesText(e), orDash(e.engine), orDash(e.version), orDash(e.device), orDash(e.dtype), orDash(exitText(e)),
        orDash(engineMemoryText(e)), orDash(countersText(e.counters)), codeText(commandLineText(e.command)),
      ]),
    ),
  ];
  const whole = wholeDecodeText(report);
  if (whole) out.push('', `Whole decode (fit, likelihood, posterior; the engine's posterior is compared with the run's in the tables above): ${whole}.`);
  const unavailable = rows.filter((s) => s.external.unavailable !== undefined);
  if (unavailable.length > 0) {
    out.push('', ...unavailable.map((s) => `- \`${s.strategy}\`: not available on this machine: ${s.external.unavailable}`));
  }
  const facts = rows.filter((s) => Object.keys(s.external.info).length > 0);
  if (facts.length > 0) out.push('', 'What each engine reported of itself:', '', ...facts.map((s) => `- \`${s.strategy}\`: ${factsText(s.external.info)}`));
  return out.join('\n');
}

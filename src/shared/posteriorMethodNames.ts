/**
 * Reading what was written before the posterior's method had its name: a report, a run's config
 * and a decode's summary said `strategy` and `strategies` for dense and structured, the word the
 * likelihood's strategies keep. Each function takes a value as a file held it and gives it under
 * today's names (`method`, `methods`), changing nothing else; a value already under them, or not an
 * object, passes as it is. What is written always has today's names.
 */

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `from` renamed to `to`, where the value has the old key and not the new one */
function renamed(v: Fields, from: string, to: string, map: (x: unknown) => unknown = (x) => x): Fields {
  if (!(from in v) || to in v) return v;
  const { [from]: old, ...rest } = v;
  return { ...rest, [to]: map(old) };
}

/** A posterior's report (report.json's `posterior`, decode.json's), with its timings per method. */
export function posteriorUnderMethodNames<T>(p: T): T {
  if (!isObject(p)) return p;
  const timings = (list: unknown): unknown => (Array.isArray(list) ? list.map((t: unknown) => (isObject(t) ? renamed(t, 'strategy', 'method') : t)) : list);
  return renamed(renamed(p, 'strategy', 'method'), 'strategies', 'methods', timings) as T;
}

/** A run's config (config.json, report.json's `config`): its posterior's methods. */
export function runConfigUnderMethodNames<T>(config: T): T {
  if (!isObject(config) || !isObject(config.posterior)) return config;
  return { ...config, posterior: renamed(config.posterior, 'strategies', 'methods') } as T;
}

/** A run's report (report.json): its config and its posterior. */
export function reportUnderMethodNames<T>(report: T): T {
  if (!isObject(report)) return report;
  const out: Fields = { ...report };
  if ('config' in report) out.config = runConfigUnderMethodNames(report.config);
  if ('posterior' in report) out.posterior = posteriorUnderMethodNames(report.posterior);
  return out as T;
}

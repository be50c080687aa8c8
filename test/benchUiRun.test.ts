/**
 * The UI benchmark's synthetic run (bench/ui/syntheticRun.ts) opens like a finished run: the
 * service lists it as completed and answers its timeline, lanes, span structure and counters;
 * its flame-chart-js form (bench/ui/flameChartData.ts) keeps every span, properly nested.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNdjsonRecords } from '../src/main/export';
import { RUN_FILES } from '../src/main/engineProtocol';
import { createProfilerService, type ProfilerService } from '../src/main/service';
import { flameChartData, type FlameNode } from '../bench/ui/flameChartData';
import { writeSyntheticRun, type SyntheticRun } from '../bench/ui/syntheticRun';
import { blockPlan, DEFAULT_SHAPE } from '../bench/ui/syntheticTrace';

const EVENTS = 5_000;
const ELECTRODES = 8;

describe('UI bench synthetic run', () => {
  let runsDir: string;
  let run: SyntheticRun;
  let service: ProfilerService;

  beforeAll(async () => {
    runsDir = await mkdtemp(join(tmpdir(), 'kde-ui-bench-test-'));
    run = await writeSyntheticRun({ runsDir, events: EVENTS, electrodes: ELECTRODES });
    service = createProfilerService({ runsDir });
  });

  afterAll(async () => {
    await service?.close();
    if (runsDir) await rm(runsDir, { recursive: true, force: true });
  });

  it('writes about the asked number of records', () => {
    expect(run.events).toBeGreaterThan(EVENTS * 0.9);
    expect(run.events).toBeLessThan(EVENTS * 1.1);
    expect(run.durationUs).toBeGreaterThan(0);
  });

  it('is listed as a completed run, with its config and the files a finished run leaves', async () => {
    const runs = await service.listRuns();
    expect(runs.map((r) => [r.id, r.status])).toEqual([[run.runId, 'completed']]);
    const detail = await service.getRun(run.runId);
    expect(detail.config.workers).toBe(DEFAULT_SHAPE.workers);
    for (const file of [RUN_FILES.config, RUN_FILES.status, RUN_FILES.events, RUN_FILES.trace]) expect(existsSync(join(runsDir, run.runId, file))).toBe(true);
  });

  it('answers the timeline: every record counted, the thread and electrode lanes, spans in the window', async () => {
    const view = await service.getTimeline(run.runId, { startUs: 0, endUs: run.durationUs, widthPx: 1200 });
    expect(view.totalEvents).toBe(run.events);
    expect(view.totalUs).toBeCloseTo(run.durationUs, 3);
    const names = view.lanes.map((l) => l.name);
    expect(names.slice(0, 4)).toEqual(['service', 'engine', 'engine · worker 0', 'engine · worker 0 · e0']);
    expect(names).toContain('engine · worker 1 · e7');
    expect(names).toHaveLength(4 + ELECTRODES);
    expect(view.spans.length).toBeGreaterThan(0);
    expect(view.spans.find((s) => s.name === 'engine process')?.lane).toBe('service:1');
    expect(view.spans.find((s) => s.name === 'run')?.lane).toBe('engine:1');
  });

  it('nests run › strategy › repeat › encode/decode › electrode › block › stages', async () => {
    const lanes = (await service.getTimeline(run.runId, { startUs: 0, endUs: run.durationUs, widthPx: 100 })).lanes.map((l) => l.id);
    const area = await service.summarizeArea(run.runId, { startUs: 0, endUs: run.durationUs, lanes });
    const count = (name: string) => area.rows.find((r) => r.name === name)?.count ?? 0;
    const strategies = DEFAULT_SHAPE.strategies.length;
    const passes = strategies * DEFAULT_SHAPE.passes;
    expect(count('run')).toBe(1);
    expect(count('strategy')).toBe(strategies);
    expect(count('repeat')).toBe(passes);
    expect(count('encode')).toBe(passes);
    expect(count('decode')).toBe(passes);
    // each electrode is fitted and decoded once per pass
    expect(count('electrode')).toBe(2 * passes * ELECTRODES);
    const blocks = blockPlan({ ...DEFAULT_SHAPE, electrodes: ELECTRODES, targetEvents: EVENTS }).reduce((a, b) => a + b, 0);
    expect(count('logsumexp')).toBe(blocks);
    expect(count('gemm')).toBe(blocks + passes * ELECTRODES);
  });

  it('has memory counters from the service, the engine main thread and each worker', async () => {
    const counters = await service.getCounters(run.runId);
    const names = new Set(counters.map((c) => c.name));
    for (const name of ['engine memory (MB)', 'memory (MB)', 'tensors', 'worker 0 tensors', 'worker 1 tensors']) expect(names).toContain(name);
  });

  it('converts to flame-chart-js nodes: one tree per thread, every span once, children inside their parent', async () => {
    const { records } = await readNdjsonRecords(join(runsDir, run.runId, RUN_FILES.events));
    const data = flameChartData(records);
    expect(data.totalEvents).toBe(run.events);
    expect(data.lanes.map((l) => l.name)).toEqual(['service', 'engine', 'engine · worker 0', 'engine · worker 1']);
    let nodes = 0;
    const walk = (node: FlameNode, parent: FlameNode | undefined) => {
      nodes++;
      if (parent) {
        expect(node.start).toBeGreaterThanOrEqual(parent.start);
        expect(node.start + node.duration).toBeLessThanOrEqual(parent.start + parent.duration + 1e-6);
      }
      for (const child of node.children ?? []) walk(child, node);
    };
    for (const lane of data.lanes) for (const root of lane.nodes) walk(root, undefined);
    expect(nodes).toBe(records.filter((r) => r.ph === 'X').length);
    expect(data.spans).toBe(nodes);
    const engine = data.lanes[1]!.nodes.find((n) => n.name === 'run');
    expect(engine?.children?.map((c) => c.name)).toEqual(DEFAULT_SHAPE.strategies.map(() => 'strategy'));
  });
});

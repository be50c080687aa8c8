import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../../shared/api';
import { buildPerfettoBundle, bundleMemberName, bundleRunOf, perfettoManifest, PERFETTO_MANIFEST_FILE, type BundleRun } from './perfettoBundle';

const trace = (name: string) => new TextEncoder().encode(JSON.stringify({ traceEvents: [{ ph: 'X', name, pid: 1, tid: 1, ts: 0, dur: 5 }] }));

function run(runId: string, startedAtMs: number): BundleRun {
  return { runId, trace: trace(runId), machine: `run ${runId}`, startedAtMs, attributes: { dataset: 'preset:tiny', repeats: 3 } };
}

const A = run('20260101-120000-aaaaaa', Date.UTC(2026, 0, 1, 12, 0, 0));
const B = run('20260101-110000-bbbbbb', Date.UTC(2026, 0, 1, 11, 0, 0, 250));

describe('perfetto bundle', () => {
  it('makes each run a machine of its own, pinned to the first run\'s start', () => {
    const { perfetto_manifest: m } = perfettoManifest([A, B]) as { perfetto_manifest: Record<string, unknown> };
    expect(m.version).toBe(1);
    expect(m.files).toEqual([
      { path: bundleMemberName(A.runId), machine: { name: `run ${A.runId}` } },
      { path: bundleMemberName(B.runId), machine: { name: `run ${B.runId}` }, clocks: { sync_to: { file: bundleMemberName(A.runId) }, offset_ns: 0 } },
    ]);
    expect(m.attributes).toMatchObject({
      'kde_profiler.runs': `${A.runId},${B.runId}`, 'kde_profiler.align': 'start',
      [`kde_profiler.${B.runId}.dataset`]: 'preset:tiny', [`kde_profiler.${B.runId}.repeats`]: 3, [`kde_profiler.${B.runId}.offset_ns`]: 0,
    });
  });

  it('on the wall clock: the earliest run is the reference, the others later by their creation times', () => {
    const { perfetto_manifest: m } = perfettoManifest([A, B], 'wall-clock') as { perfetto_manifest: { files: Record<string, unknown>[] } };
    expect(m.files[1]).toEqual({ path: bundleMemberName(B.runId), machine: { name: `run ${B.runId}` } });
    // an hour less 250 ms after B: never negative, which would drop events before the timeline's start
    expect(m.files[0]!.clocks).toEqual({ sync_to: { file: bundleMemberName(B.runId) }, offset_ns: (3600_000 - 250) * 1e6 });
  });

  it('zips the manifest and every run\'s trace, the manifest starting as Perfetto detects it', () => {
    const members = unzipSync(buildPerfettoBundle([A, B]));
    expect(Object.keys(members).sort()).toEqual([bundleMemberName(B.runId), bundleMemberName(A.runId), PERFETTO_MANIFEST_FILE].sort());
    expect(strFromU8(members[PERFETTO_MANIFEST_FILE]!).replace(/\s/g, '')).toMatch(/^\{"perfetto_manifest"/);
    expect(JSON.parse(strFromU8(members[bundleMemberName(A.runId)]!))).toEqual(JSON.parse(strFromU8(A.trace)));
    expect(buildPerfettoBundle([A, B])).toEqual(buildPerfettoBundle([A, B]));
  });

  it('refuses a run named twice and an empty bundle', () => {
    expect(() => buildPerfettoBundle([A, A])).toThrow(/named twice/);
    expect(() => buildPerfettoBundle([])).toThrow(/at least one run/);
  });

  it('takes a run\'s identity from what the service gives, leaving out what it lacks', () => {
    const detail = {
      entry: { id: A.runId, status: 'completed', createdAt: '2026-01-01T12:00:00.000Z', dataset: 'preset:tiny', backend: 'wasm', strategies: ['reference'], headline: [] },
      config: { repeats: 3 },
      report: null,
    } as unknown as RunDetail;
    const r = bundleRunOf(detail, trace('x'));
    expect(r.machine).toBe(`run ${A.runId} · preset:tiny · wasm`);
    expect(r.startedAtMs).toBe(Date.UTC(2026, 0, 1, 12));
    expect(r.attributes).toEqual({ created_at: '2026-01-01T12:00:00.000Z', status: 'completed', dataset: 'preset:tiny', backend: 'wasm', strategies: 'reference', repeats: 3 });
  });
});

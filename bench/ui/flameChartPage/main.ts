/**
 * The UI benchmark's flame-chart-js page: loads the whole run as nested nodes (data.json, written
 * beside the page by flameChartTarget.ts), draws one flame chart per thread lane under a header of
 * its own, and keeps the timeline contract the benchmark measures the app by: data-paint-count
 * counts finished paints, data-spans the nodes held, data-total-events the run's records. The
 * time the data had been fetched and parsed goes in data-data-loaded-ms, so the report can tell
 * loading from drawing.
 */
import { FlameChartContainer, FlameChartPlugin, TimeGridPlugin, TogglePlugin, type UIPlugin } from 'flame-chart-js';
import type { FlameChartData } from '../flameChartData';

const HEIGHT_PX = 720;

/** by colour key (a span's name without its number), close to the app's palette */
const COLOURS: Record<string, string> = {
  'engine process': '#9aa5b1',
  run: '#5470c6',
  repeat: '#73c0de',
  encode: '#91cc75',
  decode: '#fac858',
  electrode: '#ee6666',
  block: '#fc8452',
  kernel: '#9a60b4',
  gemm: '#3ba272',
  logsumexp: '#ea7ccc',
};

async function main(root: HTMLElement, canvas: HTMLCanvasElement): Promise<void> {
  const response = await fetch('./data.json');
  if (!response.ok) throw new Error(`data.json: HTTP ${response.status}`);
  const data = (await response.json()) as FlameChartData;
  root.dataset.dataLoadedMs = performance.now().toFixed(1);

  canvas.width = root.clientWidth;
  canvas.height = HEIGHT_PX;
  const plugins: UIPlugin[] = [new TimeGridPlugin()];
  for (const lane of data.lanes) {
    plugins.push(new TogglePlugin(lane.name), new FlameChartPlugin({ data: lane.nodes, name: lane.name, colors: COLOURS }));
  }
  const chart = new FlameChartContainer({ canvas, plugins });
  root.dataset.spans = String(data.spans);
  root.dataset.totalEvents = String(data.totalEvents);
  // every full or partial render ends in shallowRender, which copies the plugins' layers to the canvas
  const engine = chart.renderEngine;
  const shallowRender = engine.shallowRender.bind(engine);
  let paints = 0;
  engine.shallowRender = () => {
    shallowRender();
    root.dataset.paintCount = String(++paints);
  };
}

const root = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
main(root, root.querySelector('canvas')!).catch((e: unknown) => {
  root.dataset.error = e instanceof Error ? e.message : String(e);
  console.error(e);
});

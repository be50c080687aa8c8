/**
 * Works around a zrender behaviour: an incremental layer (ECharts 6 puts every heatmap cell on
 * one, progressive or not) is painted over several animation frames, and a frame that comes after
 * the chart was disposed throws "Cannot read properties of null (reading 'layerStack')". Painting
 * the emptied chart once more, synchronously, gives the painter a new redraw id, so the frames
 * still queued see they are stale and stop before the canvas is gone.
 */
import { onBeforeUnmount, type ShallowRef } from 'vue';

interface ChartLike {
  isDisposed(): boolean;
  clear(): void;
  getZr(): { flush(): void };
}

export function settlePaint(chart: ChartLike | undefined): void {
  if (!chart || chart.isDisposed()) return;
  chart.clear();
  chart.getZr().flush();
}

/** call in the component that holds the VChart: its hook runs before the VChart child disposes */
export function useSettleOnUnmount(vchart: Readonly<ShallowRef<{ chart?: ChartLike } | null>>): void {
  onBeforeUnmount(() => settlePaint(vchart.value?.chart));
}

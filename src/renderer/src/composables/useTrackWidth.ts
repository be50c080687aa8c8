/**
 * The width of a track view (the span tracks, the counter tracks), followed as its element resizes:
 * both lay out their plot from it, left of which the labels take LABEL_PX. A width the labels and
 * padding alone would fill (a hidden or collapsing panel) is ignored, so the plot keeps its last one.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';
import { LABEL_PX, RIGHT_PAD_PX } from '../timeline/drawTracks';

/** `changed`: called with each width taken, once it is in `widthPx` */
export function useTrackWidth(root: Readonly<Ref<HTMLElement | null>>, changed: (widthPx: number) => void = () => undefined): Ref<number> {
  const widthPx = ref(1200);
  let observer: ResizeObserver | null = null;
  onMounted(() => {
    if (!root.value || typeof ResizeObserver === 'undefined') return;
    observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0);
      if (w <= LABEL_PX + RIGHT_PAD_PX) return;
      widthPx.value = w;
      changed(w);
    });
    observer.observe(root.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
  return widthPx;
}

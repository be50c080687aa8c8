/**
 * Registers the ECharts parts the app uses (tree-shaken import) once, before any chart mounts
 * (LabelLayout makes `labelLayout: { hideOverlap }` work, as the roofline's stage labels need),
 * and the timeline's batch shape: many rectangles drawn as one path (see charts/timelineOption).
 */
import { graphic, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import { SPAN_BATCH_SHAPE } from '../charts/timelineBatch';

use([
  CanvasRenderer, BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart,
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent,
  VisualMapComponent, LabelLayout,
]);

const SpanBatch = graphic.extendShape({
  type: SPAN_BATCH_SHAPE,
  shape: { rects: [] as number[] },
  buildPath(ctx, shape) {
    const r = shape.rects as number[];
    for (let i = 0; i + 3 < r.length; i += 4) ctx.rect(r[i]!, r[i + 1]!, r[i + 2]!, r[i + 3]!);
  },
});
graphic.registerShape(SPAN_BATCH_SHAPE, SpanBatch);

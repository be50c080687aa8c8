/**
 * Registers the ECharts parts the app uses (tree-shaken import) once, before any chart mounts
 * (LabelLayout makes `labelLayout: { hideOverlap }` work, as the roofline's stage labels need).
 * The timeline is not an ECharts chart: it draws its tracks on a canvas of its own (timeline/).
 */
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { LabelLayout } from 'echarts/features';

use([
  CanvasRenderer, BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart,
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent,
  VisualMapComponent, LabelLayout,
]);

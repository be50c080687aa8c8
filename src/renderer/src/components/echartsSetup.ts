/**
 * Registers the ECharts parts the app uses (tree-shaken import) once, before any chart mounts.
 */
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, VisualMapComponent,
} from 'echarts/components';

use([
  CanvasRenderer, BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart,
  AxisPointerComponent, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, VisualMapComponent,
]);

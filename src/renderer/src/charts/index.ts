/**
 * ECharts option builders: pure functions from contract types to an EChartsOption, tested
 * without a browser. They must not import Vue, stores, echarts' runtime (types only), the DOM,
 * node or electron; components hand their result to vue-echarts.
 */
export { agreementCells, agreementHeatmapOption, agreementLabel, DIFF_FLOOR, type AgreementMetric } from './agreementHeatmapOption';
export { compareBars, compareOption } from './compareOption';
export { dataPreviewOption, electrodeLabelStep, PREVIEW_HEIGHT_PX, spikeTickData } from './dataPreviewOption';
export { kernelOption, topKernels, TOP_KERNELS } from './kernelOption';
export { colorAt, heatmapRaster, VIRIDIS, type Raster } from './heatmapRaster';
export {
  cellAt, colorRange, fractionalIndex, likelihoodHeatmapOption, likelihoodValues, rowRelativeValues, type LikelihoodOptions,
} from './likelihoodHeatmapOption';
export { binaryLogAxis, memoryBars, memoryEstimateOption } from './memoryEstimateOption';
export { memoryAxisOf, memoryColor, memoryLabel, memoryOption, OUTSIDE_RSS_COUNTER, type MemorySeriesInput } from './memoryOption';
export { cellTicks, niceTicks, type CellTickOptions, type CellTicks } from './niceTicks';
export { colorForIndex, colorForName, escapeHtml, SERIES_COLORS, SEVERITY_COLORS } from './palette';
export { hasWarmRepeats, timingBarOption, timingBars, type TimingPhase } from './timingBarOption';

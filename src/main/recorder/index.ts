/**
 * Trace recorder and samplers: spans, counters and instants on one monotonic clock, batched for
 * the process boundary; memory sampling (own process, another process, GPU); per-stage and
 * per-kernel aggregation for the report, with stage times on the device's clock where it timed them.
 *
 * Must not import tfjs (the engine hands tf.profile results and tf.memory through plain
 * callbacks) nor electron (it runs in the engine process and in the CLI).
 */
export { Recorder, DEVICE_TID, MAIN_TID, type RecorderOptions } from './recorder';
export { BatchSink, DEFAULT_FLUSH_INTERVAL_MS, DEFAULT_MAX_BATCH_RECORDS, type BatchListener, type BatchSinkOptions } from './batchSink';
export { hrtimeNowNs, parseOriginNs, estimateClockOffsetNs, type MonotonicNowNs } from './clock';
export { MemorySampler, type MemorySamplerOptions, type MemorySummary, type MemoryPeaks, type CounterSink, type TensorMemory } from './memorySampler';
export { sampleProcessRssBytes, gpuMemory, parseNvidiaSmiMemory, type GpuMemoryInfo } from './processMemory';
export { sampleProcessTreeRssBytes, treeRssFromPs } from './processTree';
export { aggregateKernels, KernelAggregator, type ProfiledKernel } from './kernelProfile';
export { RunningStageTimes, stageTimes } from './stages';
export { DeviceStageTimes } from './deviceStages';

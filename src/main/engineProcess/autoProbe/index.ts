/** `auto` measured on the run's own data before it commits (strategyProbe.ts). */
export { probeAutoStrategy, probeSlice, type StrategyProbe } from './strategyProbe';

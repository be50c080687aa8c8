/** `auto` measured on the run's own data before it commits (strategyProbe.ts). */
export { markProbe, probeAutoStrategy, probeSlice, type StrategyProbe } from './strategyProbe';

/**
 * Groups of ProfilerApi's calls, each made from the ServiceCore the facade built: the calls about
 * the machine and the data rather than one run (system info, presets, inspection, memory
 * estimates, NWB mapping, npz export, the sweeps on disk), and the views of one run's recording
 * (timeline, span search, area summary, counters, likelihood, posterior), answered from the live
 * run while it records and from its files after.
 *
 * Builds on the other rooms and the argument checks (validate.ts). Must not import the facade
 * (profilerService.ts), and no room imports it: the facade spreads these groups into one
 * ProfilerApi.
 */
export { dataCalls } from './dataCalls';
export { runViews } from './runViews';

/**
 * Sweeps on disk: `<runsDir>/sweeps/<id>/` beside the runs, with sweep.json (the values, their
 * runs, each strategy's medians, slopes and crossovers), sweep.csv and data/ (the file each
 * value's run read, written through data/ with the runs folder's write errors). The runs of a
 * sweep stay ordinary runs of the store.
 *
 * Builds on store/ (atomic writes and their errors), analysis/ and data/. Must not import the
 * queue, the timeline, the likelihood rooms nor the facade: the CLI's sweep command runs each
 * value through the service and records the sweep here.
 */
export {
  createSweepFolder, deleteSweepFolder, listSweeps, readSweep, saveSweep, sizesOf, sweepCsv, sweepDir, sweepResultOf, SWEEP_FILES, SWEEPS_DIR,
  writeSweepData, type SweepDataFile, type SweepDataRequest, type SweepPlan,
} from './sweeps';

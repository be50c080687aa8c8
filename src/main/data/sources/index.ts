/**
 * A DataSource to a Dataset or an inspection: a preset is built, a path picks its loader (NWB,
 * HDF5 and recipe files go to nwb/, everything else to clusterlessNpz/).
 *
 * Imports node, src/shared, clusterlessNpz/, nwb/, presets/ and dataset/ only: the loaders never
 * import it.
 */
export { inspectData, isNwbSource, loadDataset, nwbRequest, type LoadOptions } from './dataSources';

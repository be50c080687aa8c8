/**
 * Opening files safely: a file a person names (a .npz, an .nwb, a recipe) is checked to be a
 * regular file before it is opened, so a named pipe or a device never stalls the service; a file
 * anyone with write access may have replaced (the runs folder, a run's trace) is refused when it
 * links out of its folder or is larger than its reader expects, and a gzip member inflates to a
 * bounded size. Writing them whole: a file through a temporary name and a rename (atomicWrite.ts),
 * a result folder (`--out DIR`) as one commit with its manifest last (resultFolder.ts).
 *
 * The bottom of data/: imports node and src/shared only, no other room.
 */
export { entryAt, existsError, notAFileError, openRegularFile, readRegularText, regularFileStats, type OpenedFile } from './regularFile';
export {
  gunzipBounded, gzipDeclaredSize, MAX_TRACE_GZ_BYTES, MAX_TRACE_JSON_BYTES, openUntrustedFile, readTraceJson, readUntrustedFile,
  readUntrustedText, type UntrustedReadOptions,
} from './untrustedFile';
export { TEMPORARY_NAME, temporaryBeside, writeFailureReason, writeFileAtomic } from './atomicWrite';
export { processAlive } from './processAlive';
export {
  commitResultFolder, holdsResult, pendingCommit, readResultManifest, recoverResultFolder, RESULT_MANIFEST, stageFile, type ResultDescription, type ResultManifest,
  type ResultNames,
} from './resultFolder';

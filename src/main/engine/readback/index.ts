/**
 * Reads from the device batched into one readback (readback.ts): what the fit and the KDE leave on
 * the device until the host needs it. Imports tfjs only.
 */
export { allPending, discardAll, pendingRead, readAll, readNow, readyRead, type PendingRead } from './readback';

/**
 * ProfilerApi over Electron IPC (main side): handlers that check the sender and every argument's
 * shape (the argument table and channel names are the contract's, in src/shared/). Nothing here
 * imports electron at run time: main/index.ts hands in ipcMain and the dialog, so tests can drive
 * the handlers directly.
 *
 * Must not import the renderer, the engine, or electron values.
 */
export { registerIpcHandlers, type IpcHandlerOptions, type IpcInvokeEventLike, type IpcMainLike, type IpcSenderLike } from './ipcHandlers';
export { createSenderCheck, type FrameLike, type SenderCheckOptions, type SenderEventLike } from './senderCheck';

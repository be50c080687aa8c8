/**
 * ProfilerApi over Electron IPC (main side): handlers that check the sender and every argument's
 * shape, and the argument table the WebSocket server shares. Nothing here imports electron at run
 * time: main/index.ts hands in ipcMain and the dialog, so tests can drive the handlers directly.
 *
 * Must not import the renderer, the engine, or electron values.
 */
export { API_ARGS, callApi, checkArgs, checkSubscriptionKey } from './apiArgs';
export {
  MENU_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, isMenuCommand, type EventDelivery, type IpcResult, type MenuCommand,
} from './channels';
export { registerIpcHandlers, type IpcHandlerOptions, type IpcInvokeEventLike, type IpcMainLike, type IpcSenderLike } from './ipcHandlers';
export { createSenderCheck, type FrameLike, type SenderCheckOptions, type SenderEventLike } from './senderCheck';

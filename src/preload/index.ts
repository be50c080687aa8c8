/**
 * The preload: exposes `window.profiler` (ProfilerApi over IPC) and `window.profilerFiles` (the
 * path of a dropped file) and nothing more. It runs sandboxed, so it is bundled to one CommonJS
 * file; ipcRenderer itself never reaches the page.
 *
 * Must not import node modules or anything of the main process but the IPC channel constants.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadApi } from './api';
import { bridgeSafe } from './bridge';
import { createDesktopFiles } from './files';

contextBridge.exposeInMainWorld('profiler', bridgeSafe(createPreloadApi(ipcRenderer)));
contextBridge.exposeInMainWorld('profilerFiles', createDesktopFiles(webUtils));

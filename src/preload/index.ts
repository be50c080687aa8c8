/**
 * The preload: exposes `window.profiler` (ProfilerApi over IPC) and `window.profilerFiles` (the
 * path of a dropped file) and nothing more. It runs sandboxed, so it is bundled to one CommonJS
 * file; ipcRenderer itself never reaches the page.
 *
 * Must import nothing but electron and src/shared (the contract).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadApi } from './api';
import { createDesktopFiles } from './files';

contextBridge.exposeInMainWorld('profiler', createPreloadApi(ipcRenderer));
contextBridge.exposeInMainWorld('profilerFiles', createDesktopFiles(webUtils));

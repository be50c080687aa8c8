/**
 * The preload: exposes `window.profiler` (ProfilerApi over IPC) and nothing more. It runs
 * sandboxed, so it is bundled to one CommonJS file; ipcRenderer itself never reaches the page.
 *
 * Must not import node modules or anything of the main process but the IPC channel constants.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './api';
import { bridgeSafe } from './bridge';

contextBridge.exposeInMainWorld('profiler', bridgeSafe(createPreloadApi(ipcRenderer)));

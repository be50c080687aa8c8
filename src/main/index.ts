/**
 * Electron composition root: one window, the menu, the service with the engine in a
 * utilityProcess, and ProfilerApi over IPC. Nothing else lives here.
 *
 * The only module besides ipc/ that imports electron.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BrowserWindow, Menu, app, dialog, ipcMain, nativeTheme, screen, session, shell, utilityProcess, type WebContents,
} from 'electron';
import type { ExportResult } from '../shared/api';
import { menuTemplate, type ThemeSource } from './appMenu';
import { rendererCspHeader } from '../shared/csp';
import { adaptUtilityProcess } from './host';
import { MENU_CHANNEL, type MenuCommand } from '../shared/ipcChannels';
import { createSenderCheck, registerIpcHandlers } from './ipc';
import { createProfilerService, type ProfilerService } from './service';
import {
  exampleArg, isAllowedExternalUrl, isSameDocument, mainWindowOptions, parseSettings, placeOnScreen, type AppSettings,
} from './windowOptions';

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
/** set by `electron-vite dev`; the built app loads the renderer from disk */
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const rendererUrl = devServerUrl ?? pathToFileURL(here('../renderer/index.html')).href;
const settingsFile = () => join(app.getPath('userData'), 'settings.json');

let mainWindow: BrowserWindow | null = null;
let service: ProfilerService | null = null;
let settings: AppSettings = parseSettings(null);

async function loadSettings(): Promise<AppSettings> {
  try {
    return parseSettings(JSON.parse(await readFile(settingsFile(), 'utf8')));
  } catch {
    return parseSettings(null);
  }
}

async function saveSettings(): Promise<void> {
  await mkdir(app.getPath('userData'), { recursive: true });
  await writeFile(settingsFile(), `${JSON.stringify(settings, null, 2)}\n`);
}

function spawnEngine() {
  const proc = utilityProcess.fork(here('./engineMain.js'), [], { stdio: ['ignore', 'ignore', 'pipe'], serviceName: 'KDE Profiler engine' });
  return adaptUtilityProcess(proc);
}

function sendMenu(command: MenuCommand): void {
  mainWindow?.webContents.send(MENU_CHANNEL, command);
}

async function pickDataFile(): Promise<string | null> {
  const options = {
    title: 'Open data',
    properties: ['openFile' as const],
    filters: [{ name: 'Neural data', extensions: ['npz', 'nwb'] }],
  };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0]!;
}

async function saveExport(result: ExportResult): Promise<ExportResult> {
  if (!result.base64) return result;
  const options = { title: 'Export', defaultPath: join(app.getPath('downloads'), result.fileName) };
  const choice = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { fileName: result.fileName, mime: result.mime };
  await writeFile(choice.filePath, Buffer.from(result.base64, 'base64'));
  return { fileName: result.fileName, mime: result.mime, savedPath: choice.filePath };
}

function setTheme(theme: ThemeSource): void {
  nativeTheme.themeSource = theme;
  settings = { ...settings, theme };
  void saveSettings();
}

function installMenu(): void {
  const actions = {
    openData: () => void pickDataFile().then((path) => path && sendMenu({ command: 'open-data', path })),
    openRun: () => sendMenu({ command: 'open-run' }),
    exportRun: () => sendMenu({ command: 'export' }),
    setTheme,
  };
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, settings.theme, process.platform === 'darwin')));
}

/** Every webContents: no navigation away from the app, no new windows, no webviews. */
function lockDown(contents: WebContents): void {
  const leave = (event: { preventDefault(): void }, url: string) => {
    if (isSameDocument(contents.getURL(), url)) return;
    event.preventDefault();
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
  };
  contents.on('will-navigate', leave);
  contents.on('will-redirect', leave);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function installSessionPolicy(): void {
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (details.resourceType === 'mainFrame') headers['Content-Security-Policy'] = [rendererCspHeader()];
    callback({ responseHeaders: headers });
  });
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

function createWindow(): BrowserWindow {
  const bounds = placeOnScreen(settings.bounds, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow(mainWindowOptions(here('../preload/index.cjs'), bounds));
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    settings = { ...settings, bounds: win.getNormalBounds() };
    void saveSettings();
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  // `npm run example` passes --example PRESET: the page then starts a run of every strategy on it
  const example = exampleArg(process.argv);
  const hash = example === null ? undefined : `/live?example=${example}`;
  if (devServerUrl) void win.loadURL(hash === undefined ? devServerUrl : `${devServerUrl}#${hash}`);
  else void win.loadFile(here('../renderer/index.html'), hash === undefined ? {} : { hash });
  return win;
}

// tests point the app at a throwaway profile so they never touch the user's runs or settings
if (process.env.KDE_PROFILER_USER_DATA) app.setPath('userData', process.env.KDE_PROFILER_USER_DATA);
app.enableSandbox();
app.on('web-contents-created', (_event, contents) => lockDown(contents));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });

  app.whenReady().then(async () => {
    settings = await loadSettings();
    nativeTheme.themeSource = settings.theme;
    installSessionPolicy();
    service = createProfilerService({ runsDir: join(app.getPath('userData'), 'runs'), spawnEngine, servesPages: true });
    registerIpcHandlers({
      ipcMain,
      api: service,
      pickDataFile,
      saveExport,
      isTrustedSender: createSenderCheck({ rendererUrl, windowContentsId: () => mainWindow?.webContents.id ?? null }),
    });
    installMenu();
    mainWindow = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  }).catch((e: unknown) => {
    // without the service or the window there is nothing to show: say why instead of idling windowless
    dialog.showErrorBox('KDE Profiler could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });

  app.on('window-all-closed', () => app.quit());

  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !service) return;
    // cancel runs first so no engine process outlives the app
    closing = true;
    event.preventDefault();
    void service.close().finally(() => app.quit());
  });
}

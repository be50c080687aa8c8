/**
 * Opens a link in the user's browser where there is a desktop to show it on: `open` on macOS,
 * `start` on Windows, `xdg-open` on Linux when a display is set. On a server over SSH there is
 * none, and the link printed beside it is the way in.
 */
import { spawn } from 'node:child_process';

/** The command that opens `url` here, or undefined where no desktop can show it. */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', url];
}

/** Starts the browser on `url`; resolves whether the command could be started (the browser's own errors are its own). */
export function openInBrowser(url: string): Promise<boolean> {
  const command = browserCommand(url);
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

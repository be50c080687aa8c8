/**
 * Who may call the API over IPC: the main frame of the app's own window, showing the app's own
 * page (its file:// index.html, or the dev server's origin under `electron-vite dev`). A frame
 * that navigated elsewhere, an iframe, or another webContents gets UNAUTHORIZED.
 */

export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
}

export interface SenderEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: FrameLike | null;
}

export interface SenderCheckOptions {
  /** the webContents id of the main window, or null while there is none */
  windowContentsId(): number | null;
  /** the page the window loads: file:///…/index.html or http://localhost:5173/ */
  rendererUrl: string;
}

export function createSenderCheck(options: SenderCheckOptions): (event: SenderEventLike) => boolean {
  const expected = new URL(options.rendererUrl);
  return (event) => {
    const windowId = options.windowContentsId();
    if (windowId === null || event.sender.id !== windowId) return false;
    const frame = event.senderFrame;
    if (!frame || (frame.parent !== null && frame.parent !== undefined)) return false;
    let url: URL;
    try {
      url = new URL(frame.url);
    } catch {
      return false;
    }
    if (expected.protocol === 'file:') return url.protocol === 'file:' && url.pathname === expected.pathname;
    return url.origin === expected.origin;
  };
}

/**
 * Turning an exported file (base64 from the service) into bytes a browser can download.
 * Blob and atob exist in browsers and in Node ≥ 16, so this is testable without a DOM.
 */

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function base64ToBlob(base64: string, mime: string): Blob {
  return new Blob([base64ToBytes(base64)], { type: mime });
}

/** Starts a browser download of a blob under a file name; DOM only, called from views. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // revoking at once can cancel the download in some browsers
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Turns whatever an api call threw into text for a banner. The api layer rebuilds AppError from the
 * wire, so code, message and location's hint are there when the service sent them.
 */

export interface ErrorText {
  code: string;
  message: string;
}

/** An object thrown without a message: an Error says its name, anything else shows its fields. */
function objectText(e: object): string {
  if (e instanceof Error) return e.toString();
  try {
    return JSON.stringify(e);
  } catch {
    return 'an error without a message';
  }
}

export function errorText(e: unknown): ErrorText {
  if (typeof e === 'object' && e !== null) {
    const r = e as { code?: unknown; message?: unknown; location?: { hint?: unknown } };
    const code = typeof r.code === 'string' ? r.code : 'INTERNAL';
    let message = typeof r.message === 'string' && r.message.length > 0 ? r.message : objectText(e);
    const hint = r.location?.hint;
    if (typeof hint === 'string' && hint.length > 0 && !message.includes(hint)) message = `${message} ${hint}`;
    return { code, message };
  }
  return { code: 'INTERNAL', message: String(e) };
}

/** Cancellation is not an error to report (architecture: house style). */
export function isCancellation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'CANCELLED';
}

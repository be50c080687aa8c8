/**
 * getApi() in web mode when the page has no token (opened without `?token=`, in a tab that never
 * had it): there is nothing to connect with, so every call fails at once with a message that says
 * which link to open, and the shell's error banner shows it, instead of a socket retrying forever.
 */
import type { ProfilerApi } from '../../../shared/api';
import { callMethods } from '../../../shared/apiCalls';
import { AppError } from '../../../shared/errors';

export const MISSING_TOKEN_MESSAGE =
  'this page has no access token. Open the link that `kde-profiler serve` printed (it ends in ?token=…); '
  + 'a tab keeps the token across reloads, but a new tab opened without that link has none.';

export function missingTokenClient(): ProfilerApi {
  return {
    ...callMethods(() => Promise.reject(new AppError('UNAUTHORIZED', MISSING_TOKEN_MESSAGE))),
    subscribe: () => () => undefined,
    pickDataFile: async () => null,
  };
}

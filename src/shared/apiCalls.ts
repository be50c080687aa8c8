/**
 * The request/response methods of ProfilerApi as calls through one function, so each transport
 * (preload over IPC, WebSocket client) writes only how a call travels, never the method list.
 */
import { API_METHODS, type ApiMethod, type ProfilerApi } from './api';

export type CallMethods = Pick<ProfilerApi, ApiMethod>;
export type Caller = (method: ApiMethod, params: unknown[]) => Promise<unknown>;

export function callMethods(call: Caller): CallMethods {
  const methods: Record<string, (...params: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHODS) methods[method] = (...params: unknown[]) => call(method, params);
  // one cast for the whole table: each entry forwards its own arguments unchanged
  return methods as unknown as CallMethods;
}

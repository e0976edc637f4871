/**
 * The one contract every process keys off: each call's name, input schema and output type, and the push
 * events. Call names are `domain:verb`; no channel string appears anywhere else.
 */
import type { z } from 'zod';
import type { CallSpec, Result } from './define';
import { appCalls } from './app';
import { profileCalls } from './profiles';
import { modelCalls } from './models';
import { runCalls, type RunUpdate } from './runs';
import { capabilityCalls, type CapabilityProgress } from './capabilities';
import { libraryCalls } from './library';
import { tokenCalls } from './tokens';
import { settingsCalls } from './settings';

export * from './define';
export * from './app';
export * from './profiles';
export * from './models';
export * from './runs';
export * from './errors';
export * from './capabilities';
export * from './library';
export * from './tokens';
export * from './settings';

export const calls = {
  ...appCalls,
  ...profileCalls,
  ...modelCalls,
  ...runCalls,
  ...capabilityCalls,
  ...libraryCalls,
  ...tokenCalls,
  ...settingsCalls,
};

export type Calls = typeof calls;
export type CallName = keyof Calls;
export const CALL_NAMES = Object.keys(calls) as CallName[];

export type CallInput<K extends CallName> = z.input<Calls[K]['input']>;
export type CallParsed<K extends CallName> = z.output<Calls[K]['input']>;
export type CallOutput<K extends CallName> = Calls[K] extends CallSpec<z.ZodType, infer O> ? O : never;

/** Push events, main → renderer. */
export interface Pushes {
  'runs:update': RunUpdate[];
  'capabilities:progress': CapabilityProgress;
}
export type PushName = keyof Pushes;
export const PUSH_NAMES: PushName[] = ['runs:update', 'capabilities:progress'];

type Domain<K> = K extends `${infer D}:${string}` ? D : never;
type Verb<K, D extends string> = K extends `${D}:${infer V}` ? V : never;

/** The API the renderer sees (window.gateway in Electron, the WebSocket client in the browser host). */
export type GatewayApi = {
  [D in Domain<CallName>]: {
    [K in CallName as Verb<K, D>]: (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
  };
} & {
  /** Subscribe to a push; returns the unsubscribe function. */
  on: { [P in PushName as `${Domain<P>}${Capitalize<Verb<P, Domain<P>>>}`]: (listener: (payload: Pushes[P]) => void) => () => void };
};

/** How a host moves a call and a push: the only thing that differs between Electron and the browser host. */
export interface Transport {
  invoke(name: CallName, input: unknown): Promise<Result<unknown>>;
  subscribe(name: PushName, listener: (payload: unknown) => void): () => void;
}

/**
 * Builds the GatewayApi from the contract over one transport: one function per call, each bound to its own
 * name. Nothing generic is exposed: a page script can only call what the contract declares.
 */
export function createGatewayApi(transport: Transport): GatewayApi {
  const api: Record<string, Record<string, unknown>> = { on: {} };
  for (const name of CALL_NAMES) {
    const [domain, verb] = name.split(':') as [string, string];
    api[domain] ??= {};
    api[domain][verb] = (input: unknown) => transport.invoke(name, input ?? {});
  }
  for (const name of PUSH_NAMES) {
    const [domain, verb] = name.split(':') as [string, string];
    api.on[domain + verb[0].toUpperCase() + verb.slice(1)] = (listener: (payload: unknown) => void) =>
      transport.subscribe(name, listener);
  }
  return api as unknown as GatewayApi;
}

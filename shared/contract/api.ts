/**
 * The API the renderer sees and how it is built over a transport. Imports the schemas as types only, so a
 * bundle of this module (the preload's) carries the call names and nothing of zod.
 */
import type { CallInput, CallName, CallOutput, PushName, Pushes } from './calls';
import type { Result } from './define';
import { CALL_NAMES, PUSH_NAMES } from './names';

type Domain<K> = K extends `${infer D}:${string}` ? D : never;
type Verb<K, D extends string> = K extends `${D}:${infer V}` ? V : never;

/** The API the renderer sees (window.gateway in Electron, the WebSocket client in the browser host). */
export type GatewayApi = {
  [D in Domain<CallName>]: {
    [K in CallName as Verb<K, D>]: (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
  };
} & {
  /** Subscribe to a push; returns the unsubscribe function. */
  on: {
    [P in PushName as `${Domain<P>}${Capitalize<Verb<P, Domain<P>>>}`]: (
      listener: (payload: Pushes[P]) => void,
    ) => () => void;
  };
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

/**
 * The one fake in the renderer's tests: the transport under the real contract API. Each call `domain:verb` is
 * answered by `answers['domain:verb']`, or never (like a slow core), and recorded in `calls`. `answers` is typed
 * by the contract, so an answer that drifts from a call's input or output fails to compile. A test file mocks
 * the bridge with `vi.mock('<path>/bridge', () => import('<path>/test/fake-gateway'))` and imports
 * `answers`/`calls`/`pushed` from here; the store and every component stay real.
 */
import {
  createGatewayApi,
  type CallInput,
  type CallName,
  type CallOutput,
  type GatewayApi,
  type Preset,
  type PushName,
  type Pushes,
  type Result,
  type Transport,
} from '../../../shared/contract';

export type Answer<K extends CallName> = (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
export type Answers = { [K in CallName]?: Answer<K> };

export const answers: Answers = {};
/** One recorded call: its input typed by the contract, so `c.call === 'presets:rename'` narrows `c.input`. */
export type RecordedCall = { [K in CallName]: { call: K; input: CallInput<K> } }[CallName];

export const calls: RecordedCall[] = [];
const listeners = new Map<PushName, Set<(payload: unknown) => void>>();

/** Forgets the answers and calls of the test before. */
export function resetGateway(): void {
  for (const k of Object.keys(answers) as CallName[]) delete answers[k];
  calls.length = 0;
}

/** Delivers a push to whatever the renderer subscribed, as the host would. */
export function pushed<P extends PushName>(name: P, payload: Pushes[P]): void {
  listeners.get(name)?.forEach((cb) => cb(payload));
}

const transport: Transport = {
  invoke(name, input) {
    calls.push({ call: name, input } as RecordedCall);
    const answer = answers[name] as ((input: unknown) => Promise<Result<unknown>>) | undefined;
    return answer?.(input) ?? new Promise(() => {});
  },
  subscribe(name, listener) {
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  },
};

/** A preset as the core stores it from a save or restore input: its defaults applied, as the schema does. */
export const storedPreset = (p: CallInput<'presets:restore'>['preset']): Preset => ({
  ...p,
  tags: p.tags ?? [],
  stream: p.stream ?? false,
});

export const gateway = createGatewayApi(transport) satisfies Partial<GatewayApi>;
export const onHostConnection = (): (() => void) => () => {};
export const onHostStale = (): (() => void) => () => {};

/**
 * The one fake in the renderer's component tests: the transport. Each call `domain:verb` is answered by
 * `answers['domain:verb']`, or never (like a slow core), and recorded in `calls`. A test file mocks the bridge
 * with `vi.mock('<path>/bridge', () => import('<path>/test/fake-gateway'))` and imports `answers`/`calls` from
 * here; the store and every component stay real.
 */
import type { Result } from '../../../shared/contract';

export const answers: Record<string, (input: any) => Promise<Result<unknown>>> = {};
export const calls: { call: string; input: any }[] = [];

/** Forgets the answers and calls of the test before. */
export function resetGateway(): void {
  for (const k of Object.keys(answers)) delete answers[k];
  calls.length = 0;
}

const call = (domain: string, verb: string) => (input: unknown) => {
  calls.push({ call: `${domain}:${verb}`, input });
  return answers[`${domain}:${verb}`]?.(input) ?? new Promise(() => {});
};

export const gateway = new Proxy({}, { get: (_, domain: string) => new Proxy({}, { get: (__, verb: string) => (domain === 'on' ? () => () => {} : call(domain, verb)) }) });
export const onHostConnection = () => () => {};

/**
 * How often each real agent sends a refused turn again before its user sees the error (docs/agents.md
 * "Retries"), as measured by scripts/measure-retries.ts on 2026-11-28: each pinned CLI (captures/versions.json)
 * ran once in print mode against a loopback gateway answering every turn with one status, in the protocol's
 * error shape and without retry-after, and its requests were counted and timed. A session a retry rescues is
 * not a failure for that agent; the Check resends as the agent would (session-loop.ts). Seconds are from the
 * first request to the last, without the CLI's start-up.
 */
import type { AgentId } from '../../../shared/agents/types';
import type { AgentKind } from '../../../shared/contract';
import type { RetryFacts } from '../../../shared/agents/next-step';

export interface MeasuredRetries {
  /** The release measured. */
  release: string;
  /** Status → requests made in all for one turn before the error was shown (1: never retried). */
  requests: Record<number, number>;
  /** Status → seconds from the first request to the error shown (the backoff the user waits through). */
  seconds: Record<number, number>;
  /** Where the CLI was still retrying when it was stopped: the counts are at least these. */
  stillRetrying?: number[];
}

export const AGENT_RETRIES: Record<AgentId, MeasuredRetries> = {
  // 1 + 10 retries on 429/500/529, backoff from ~1.5 s doubling to ~35–40 s; a 404 sent once more; a 400 final.
  'claude-code': {
    release: 'Claude Code 2.1.197',
    requests: { 429: 11, 500: 11, 529: 11, 404: 2, 400: 1 },
    seconds: { 429: 184, 500: 192, 529: 178, 404: 2, 400: 0 },
  },
  // A 429 (without retry-after) is final: "exceeded retry limit, last status: 429". A 5xx: six requests (1 + 5
  // retries, 0.3–3 s apart), the whole run again up to five times: 30 requests over ~40 s. A 404:
  // 1 + 5 retries in ~11 s. A 400: final.
  codex: {
    release: 'Codex 0.171.0',
    requests: { 429: 1, 500: 30, 529: 30, 404: 6, 400: 1 },
    seconds: { 429: 0, 500: 40, 529: 40, 404: 11, 400: 0 },
  },
  // Qwen Code 0.24.4, the chat-completions agent: its OpenAI SDK tries 4 times (1 + 3), Qwen Code repeats that
  // with growing waits — 28 requests over ~100 s on a 5xx; on a 429 still retrying after 56 requests over 4 min
  // ("Retrying in 120s (attempt 2/10)"). A 404 or 400: final.
  'chat-agent': {
    release: 'Qwen Code 0.24.4',
    requests: { 429: 56, 500: 28, 529: 28, 404: 1, 400: 1 },
    seconds: { 429: 252, 500: 95, 529: 108, 404: 0, 400: 0 },
    stillRetrying: [429],
  },
};

/** The measured status whose rule `status` follows: itself, else 500 for any 5xx; undefined for other 4xx. */
function measuredAs(m: MeasuredRetries, status: number): number | undefined {
  if (m.requests[status] !== undefined) return status;
  return status >= 500 ? 500 : undefined;
}

/** How many times `agent` sends a turn refused with `status` again (0: the user sees the first refusal). */
export function retriesFor(agent: AgentId, status: number | undefined): number {
  if (status === undefined) return 0;
  const m = AGENT_RETRIES[agent];
  const as = measuredAs(m, status);
  return as === undefined ? 0 : m.requests[as] - 1;
}

/** Seconds the user waits through the agent's backoff before it shows a refusal with `status`. */
export function retrySeconds(agent: AgentId, status: number | undefined): number {
  if (status === undefined) return 0;
  const m = AGENT_RETRIES[agent];
  const as = measuredAs(m, status);
  return as === undefined ? 0 : m.seconds[as];
}

/**
 * Whether a turn gets through as the Check sends it for `agent`, given the statuses its attempts meet in order
 * (200 for an answer that came): after each refusal it is sent again while the agent's retries for that status
 * last (at most MAX_RESENDS).
 */
export function throughRetries(agent: AgentId, statuses: readonly number[]): { through: boolean; retries: number } {
  let retries = 0;
  for (const status of statuses) {
    if (status < 400) return { through: true, retries };
    if (!mayRetry(agent, status, retries)) return { through: false, retries };
    retries++;
  }
  return { through: false, retries };
}

/**
 * The Check resends a refused turn at most this often: on a relay refusing one turn in three, ten resends all
 * refused is a 1-in-59,000 event, so an agent's longer run of retries changes no verdict; a refusal that never
 * ends fails either way.
 */
export const MAX_RESENDS = 10;

/** Whether `agent` sends a turn refused with `status` again after `retries` retries of it. */
export function mayRetry(agent: AgentId, status: number, retries: number): boolean {
  return retries < Math.min(retriesFor(agent, status), MAX_RESENDS);
}

/**
 * What the user sees after the agent's own retries, as two pieces of the verdict's sentence: `inline` goes
 * after "would fail …" (" even after Codex's own 29 retries"), `final` after the error ("A 400 is final for
 * Codex: it does not retry.").
 */
export function afterRetriesWords(
  agent: AgentId,
  name: string,
  status: number | undefined,
): { inline: string; final: string } {
  const n = retriesFor(agent, status);
  if (status === undefined) return { inline: '', final: '' };
  if (n === 0) return { inline: '', final: ` A ${status} is final for ${name}: it does not retry.` };
  const still = AGENT_RETRIES[agent].stillRetrying?.includes(measuredAs(AGENT_RETRIES[agent], status) ?? 0);
  return { inline: ` even after ${name}'s own ${still ? 'more than ' : ''}${n} retries`, final: '' };
}

/** Connected agents told apart by their headers; any chat-completions client is not Qwen Code, so not measured. */
const MEASURED_KIND: Partial<Record<AgentKind, AgentId>> = { 'claude-code': 'claude-code', codex: 'codex' };

/** What a connected agent was measured to do on `status`; undefined for an agent not measured (or no status). */
export function retryFacts(kind: AgentKind, status: number | undefined): RetryFacts | undefined {
  const agent = MEASURED_KIND[kind];
  if (!agent || status === undefined) return undefined;
  return { retries: retriesFor(agent, status), seconds: retrySeconds(agent, status) };
}

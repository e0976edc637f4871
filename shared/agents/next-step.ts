/**
 * What a connected agent does after a turn that failed (docs/agents.md, "Connect a real agent"), in one
 * sentence: the retry rules of each CLI as its own code applies them, so the session view says whether the
 * user will see the failure or the agent will get past it.
 */
import type { AgentKind } from '../contract/agent-session';
import type { Verdict } from '../protocols/types';

/** What the agent was measured to do on this turn's status (electron/core/agents/retries.ts). */
export interface RetryFacts {
  /** Times it sends the turn again (0: the user sees this refusal). */
  retries: number;
  /** Seconds of backoff before the user sees the error. */
  seconds: number;
}

export interface FailedTurn {
  status?: number;
  verdict: Verdict;
  /** The error's message or the verdict's reason. */
  message: string;
}

const NAMES: Record<AgentKind, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  chat: 'The agent',
  other: 'The agent',
};

const measured = (who: string, status: number, f: RetryFacts): string =>
  f.retries === 0
    ? `${who} does not retry a ${status}: it shows the error and stops the turn.`
    : `${who} sends it again up to ${f.retries} times with backoff (about ${f.seconds} s in all), then shows the error and stops the turn.`;

/** Undefined for a turn that did not fail. `facts`: what the agent was measured to do on this status. */
export function nextStep(agent: AgentKind, turn: FailedTurn, facts?: RetryFacts): string | undefined {
  const { status, verdict, message } = turn;
  if (verdict === 'complete' || verdict === 'cancelled') return undefined;
  const who = NAMES[agent];
  const signature = agent === 'claude-code' && status === 400 && /signature/i.test(message);
  if (facts && status !== undefined && status >= 400 && !signature && status !== 401 && status !== 403)
    return measured(who, status, facts);
  const retried = status === 429 || status === 408 || status === 409 || (status !== undefined && status >= 500);
  if (agent === 'claude-code') {
    if (status === 400 && /signature/i.test(message))
      return 'Claude Code sends this turn again without its thinking blocks; if that is refused too, it stops with "API Error".';
    if (retried) return 'Claude Code retries with backoff (up to 10 times), then shows "API Error" and stops the turn.';
    if (status === 401 || status === 403)
      return 'Claude Code does not retry: it shows the authentication error and stops.';
    if (status !== undefined && status >= 400)
      return `Claude Code does not retry a ${status}: it shows "API Error: ${status}" and stops the turn.`;
    if (verdict === 'error-event')
      return 'Claude Code shows the stream\'s error as "API Error"; an overloaded error is retried with backoff.';
    return 'Claude Code retries a request whose connection failed, with backoff, then shows "API Error".';
  }
  if (agent === 'codex') {
    if (status === 404) return 'Codex retries a 404 up to five times, then stops the turn with the error.';
    if (retried) return 'Codex retries with backoff, then stops the turn with the error.';
    if (status !== undefined && status >= 400)
      return `Codex does not retry a ${status}: the turn stops with the error.`;
    return 'Codex reconnects a stream that broke before it completed (up to five times), then stops the turn.';
  }
  if (retried) return `${who} (through the OpenAI SDK) retries twice with backoff, then shows the error.`;
  if (status !== undefined && status >= 400) return `${who} does not retry a ${status}: it shows the error.`;
  return `${who} sees the answer end early; whether it retries depends on the agent.`;
}

/**
 * Where a run came from, for History's Source filter, and the check it was one step of, for its grouped rows.
 * A run recorded now carries both (RunManager tags it); one recorded before they existed is inferred here.
 */
import type { Ledger, RecordedRun, RunCheck, RunSource } from '../../shared/contract';

/** The source an origin means when the caller said no more (runs:start's origin, the agent endpoint's "agent"). */
export function sourceOfOrigin(origin: string): RunSource {
  switch (origin) {
    case 'compare':
      return 'compare';
    case 'probe':
      return 'capabilities';
    case 'agent':
      return 'agents';
    case 'load':
      return 'load';
    case 'collection':
      return 'collection';
    default:
      // composer, replay, and anything unknown: what the user sent is never hidden by default.
      return 'mine';
  }
}

/**
 * An agent check's steps were sent as probes with the agent's own headers (electron/core/agents/headers.ts):
 * those headers tell an older one from a capability probe, which sends the app's user-agent.
 */
function sentAsAgent(headers: Ledger['headers']): boolean {
  const ua = headers['user-agent'] ?? '';
  return 'originator' in headers || 'x-stainless-lang' in headers || /^(claude-cli|codex)/.test(ua);
}

/** The recorded source, else the best reading of the origin (and, when at hand, the ledger's headers). */
export function sourceOf(run: { source?: RunSource; origin: string; ledger?: Pick<Ledger, 'headers'> }): RunSource {
  if (run.source) return run.source;
  const source = sourceOfOrigin(run.origin);
  return source === 'capabilities' && run.ledger && sentAsAgent(run.ledger.headers) ? 'agents' : source;
}

/** The recorded check, else a connected agent's session (every exchange of one session is one group). */
export function checkOf(run: Pick<RecordedRun, 'check' | 'ledger'>): RunCheck | undefined {
  if (run.check) return run.check;
  const session = run.ledger.sessionId;
  return session ? { id: session, label: 'Agents · connected session', unit: 'request' } : undefined;
}

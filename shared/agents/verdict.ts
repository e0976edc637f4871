/**
 * One verdict per (agent, model) from its steps: the first failing step makes it "not ready", any warning
 * "degraded", otherwise "ready". The sentence names the step, its status and evidence, and what the user would
 * see in the agent.
 */
import type { AgentLevel, AgentStep } from './types';

export const LEVEL_WORDS: Record<AgentLevel, string> = {
  ready: 'ready',
  degraded: 'degraded',
  'not-ready': 'not ready',
};

function stepSentence(step: AgentStep): string {
  const status = step.status !== undefined ? ` (HTTP ${step.status})` : '';
  const consequence = step.consequence ? ` ${step.consequence}` : '';
  return `${step.title}${status}: ${step.evidence}${consequence}`;
}

export function verdictOf(steps: readonly AgentStep[]): { level: AgentLevel; verdict: string } {
  const failed = steps.find((s) => s.outcome === 'fail');
  if (failed) return { level: 'not-ready', verdict: `not ready — ${stepSentence(failed)}` };
  const warned = steps.filter((s) => s.outcome === 'warn');
  if (warned.length) return { level: 'degraded', verdict: `degraded — ${warned.map(stepSentence).join(' ')}` };
  const passed = steps.filter((s) => s.outcome === 'pass').length;
  return {
    level: 'ready',
    verdict: `ready — ${passed === 1 ? 'its 1 step' : `all ${passed} steps`} passed on evidence.`,
  };
}

/** "2 of 5 (40 %)". */
export function rate(failed: number, total: number): string {
  return `${failed} of ${total} (${Math.round((failed / Math.max(1, total)) * 100)} %)`;
}

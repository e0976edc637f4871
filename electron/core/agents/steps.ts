/**
 * Judging one step of an agent session on evidence (docs/agents.md "What is judged"), with the probe harness's
 * helpers: a run that did not complete is described as the capability matrix describes it.
 */
import type { AgentId, AgentStep } from '../../../shared/agents/types';
import { afterRetriesWords } from './retries';
import { rate } from '../../../shared/agents/verdict';
import type { Block } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import { capText, failureOf, replyText, schemaErrors, statusOf } from '../probes/harness';

type ToolCall = Extract<Block, { kind: 'tool_call' }>;

/** What the agent would show when a request fails, from the run's own status and message. */
export function failureWords(run: FinishedRun): string {
  return failureOf(run).message;
}

/** "Codex would fail … even after Codex's own 29 retries: HTTP 502 …" / "…: HTTP 400 …. A 400 is final …". */
function withRetries(
  head: string,
  words: string,
  after: { inline: string; final: string } | undefined,
  tail = '',
): string {
  const final = after?.final ? `${/[.!?]$/.test(words) ? '' : '.'}${after.final}` : '';
  return `${head}${after?.inline ?? ''}${tail}: ${words}${final}`;
}

export type TurnJudgement = { ok: true; call: ToolCall; step: AgentStep } | { ok: false; step: AgentStep };

/** Turn one: the terminal event reached, and a streamed call to the tool asked for whose arguments validate. */
export function judgeToolTurn(
  run: FinishedRun,
  o: {
    id: string;
    title: string;
    tool: string;
    schema: object;
    agent: string;
    after?: (status?: number) => { inline: string; final: string };
  },
): TurnJudgement {
  const base = { id: o.id, title: o.title, status: statusOf(run), runIds: [run.ledger.runId] };
  if (run.result.verdict !== 'complete') {
    const words = failureWords(run);
    return {
      ok: false,
      step: {
        ...base,
        outcome: 'fail',
        evidence: words,
        consequence: withRetries(`${o.agent} would stop on its first request`, words, o.after?.(statusOf(run))),
      },
    };
  }
  const t = run.result.transcript;
  const call = t.blocks.find((b): b is ToolCall => b.kind === 'tool_call' && b.name === o.tool);
  if (!call) {
    const other = t.blocks.find((b): b is ToolCall => b.kind === 'tool_call');
    const evidence = other
      ? `called ${other.name} instead of ${o.tool}.`
      : `a plain text reply and no tool call: “${capText(replyText(t), 160)}”.`;
    return {
      ok: false,
      step: {
        ...base,
        outcome: 'fail',
        evidence,
        consequence: `${o.agent} would never run its ${o.tool} tool: the reply is text, so the task stalls.`,
      },
    };
  }
  if (!call.complete || call.args === undefined) {
    const why = call.argsError ?? 'incomplete';
    const evidence = `the ${o.tool} call's arguments do not parse: ${why} (${capText(call.argsText, 120)}).`;
    return {
      ok: false,
      step: { ...base, outcome: 'fail', evidence, consequence: `${o.agent} would report a malformed tool call.` },
    };
  }
  const errors = schemaErrors(o.schema, call.args);
  if (errors) {
    return {
      ok: false,
      step: {
        ...base,
        outcome: 'fail',
        evidence: `the ${o.tool} arguments break its schema: ${errors}.`,
        consequence: `${o.agent} would reject the tool call.`,
      },
    };
  }
  return {
    ok: true,
    call,
    step: {
      ...base,
      outcome: 'pass',
      evidence: `streamed a ${o.tool} call (id ${call.id}) whose arguments validate: ${capText(call.argsText, 120)}.`,
    },
  };
}

/** The repeated stateless turn: one failure in the repeats is a failure, reported with its rate. */
export function judgeRepeats(
  runs: FinishedRun[],
  o: {
    id: string;
    title: string;
    agent: string;
    sent: string;
    after?: (status?: number) => { inline: string; final: string };
  },
): AgentStep {
  const failed = runs.filter((r) => r.result.verdict !== 'complete');
  const runIds = runs.map((r) => r.ledger.runId);
  if (failed.length === 0) {
    return {
      id: o.id,
      title: o.title,
      outcome: 'pass',
      status: statusOf(runs[0]),
      runIds,
      evidence: `${runs.length} of ${runs.length} accepted ${o.sent}.`,
    };
  }
  const first = failed[0];
  const words = failureWords(first);
  const intermittent = failed.length < runs.length ? ' — intermittently' : '';
  const often = intermittent ? ` ${rate(failed.length, runs.length)} of the time` : '';
  return {
    id: o.id,
    title: o.title,
    outcome: 'fail',
    status: statusOf(first),
    runIds,
    evidence: `${rate(failed.length, runs.length)} failed${intermittent}, first on repeat ${runs.indexOf(first) + 1}.`,
    consequence: withRetries(`${o.agent} would fail on its second turn${often}`, words, o.after?.(statusOf(first))),
  };
}

/**
 * One replayed session: its runs (turn 1, turn 2), the refused attempts the agent would have sent again, and
 * the run it failed on or why (a timeout, a line the agent cannot read).
 */
export interface SessionRun {
  runs: FinishedRun[];
  retried?: FinishedRun[];
  failed?: FinishedRun;
  failure?: string;
}

/** "HTTP 429, 502": the statuses of refused attempts, each once. */
const statusesOf = (runs: FinishedRun[]) =>
  [
    ...new Set(
      runs.map((r) =>
        r.result.verdict === 'complete'
          ? 'a malformed stream line'
          : statusOf(r) === undefined
            ? 'no answer'
            : `HTTP ${statusOf(r)}`,
      ),
    ),
  ].join(', ');

/** Every session got through; those that met refusals got through on the agent's own retries. */
function sessionsPassed(sessions: SessionRun[], o: { id: string; title: string; agent: string; sent: string }) {
  const n = sessions.length;
  const retried = sessions.flatMap((s) => s.retried ?? []);
  const last = sessions[0].runs.at(-1);
  const step = {
    id: o.id,
    title: o.title,
    runIds: sessions.flatMap((s) => [...(s.retried ?? []), ...s.runs].map((r) => r.ledger.runId)),
    status: last && statusOf(last),
  };
  if (retried.length === 0)
    return { ...step, outcome: 'pass' as const, evidence: `${n} of ${n} sessions completed: turn 2 sent ${o.sent}.` };
  const rescued = sessions.filter((s) => s.retried?.length).length;
  return {
    ...step,
    outcome: 'warn' as const,
    evidence:
      `${n} of ${n} sessions completed, ${rescued} of them only on ${o.agent}'s own retries: ` +
      `${retried.length} request(s) sent again after ${statusesOf(retried)}.`,
    consequence: `${o.agent} would work, but its user waits through its backoff on ${rate(rescued, n)} sessions.`,
  };
}

/**
 * Whole sessions, counted as the agent's user meets them after the agent's own retries (retries.ts): "k of n
 * sessions" failed, and what the first failure looked like; a session a retry rescues is not a failure.
 */
export function judgeSessions(
  sessions: SessionRun[],
  o: { id: string; title: string; agent: string; agentId: AgentId; sent: string },
): AgentStep {
  const n = sessions.length;
  const bad = sessions.filter((s) => s.failed || s.failure);
  if (bad.length === 0) return sessionsPassed(sessions, o);
  const runIds = sessions.flatMap((s) => [...(s.retried ?? []), ...s.runs].map((r) => r.ledger.runId));
  const base = { id: o.id, title: o.title, runIds };
  const first = bad[0];
  const words = first.failure ?? (first.failed ? failureWords(first.failed) : 'no answer');
  const onTurn2 = first.failed !== undefined && first.runs.indexOf(first.failed) === 1;
  const where = onTurn2 ? 'on its second turn' : 'on its first request';
  const k = bad.length;
  const intermittent = k < n;
  const status = first.failed && statusOf(first.failed);
  const after = first.failure ? undefined : afterRetriesWords(o.agentId, o.agent, status);
  return {
    ...base,
    outcome: 'fail',
    status,
    evidence: `${rate(k, n)} sessions failed${intermittent ? ' — intermittently' : ''}, first in session ${sessions.indexOf(first) + 1} ${where}.`,
    consequence: intermittent
      ? withRetries(`${o.agent} would fail ${rate(k, n)} sessions`, words, after, `, ${where}`)
      : withRetries(`${o.agent} would fail ${where}`, words, after),
  };
}

/** A cache read on a repeat of the same prefix; counters absent or always zero mean every turn pays full price. */
export function judgeCache(runs: FinishedRun[], agent: string): AgentStep {
  const ok = runs.filter((r) => r.result.verdict === 'complete');
  const reads = ok.map((r) => r.result.transcript.usage.inputCached);
  const runIds = ok.map((r) => r.ledger.runId);
  const base = { id: 'cache', title: 'Cache read on the repeat turn', runIds };
  if (ok.length < 2)
    return { ...base, outcome: 'skip', evidence: 'not enough complete repeats to look for a cache read.' };
  const best = Math.max(0, ...reads.map((n) => n ?? 0));
  if (best > 0) return { ...base, outcome: 'pass', evidence: `a repeat read ${best} tokens from the cache.` };
  const consequence = `${agent} would work, but every turn costs full price (no prompt caching).`;
  if (reads.every((n) => n === undefined)) {
    return {
      ...base,
      outcome: 'warn',
      evidence: `no cache counters in the usage of ${ok.length} repeats.`,
      consequence,
    };
  }
  return {
    ...base,
    outcome: 'warn',
    evidence: `cache read stayed 0 on ${ok.length} repeats of the same prefix.`,
    consequence,
  };
}

/** Usage in the terminal event: without it the agent cannot show cost or manage its context. */
export function judgeUsage(run: FinishedRun, agent: string): AgentStep {
  const u = run.result.transcript.usage;
  const base = { id: 'usage', title: 'Usage in the terminal event', runIds: [run.ledger.runId] };
  if (u.inputTotal !== undefined && u.output !== undefined) {
    return { ...base, outcome: 'pass', evidence: `input ${u.inputTotal}, output ${u.output} tokens reported.` };
  }
  return {
    ...base,
    outcome: 'warn',
    evidence: `usage ${u.inputTotal === undefined ? 'input' : 'output'} tokens not reported.`,
    consequence: `${agent} would show no token use and could not tell when its context is full.`,
  };
}

export function skipped(id: string, title: string, why: string): AgentStep {
  return { id, title, outcome: 'skip', evidence: why, runIds: [] };
}

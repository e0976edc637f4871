/**
 * Judging one step of an agent session on evidence (docs/agents.md "What is judged"), with the probe harness's
 * helpers: a run that did not complete is described as the capability matrix describes it.
 */
import type { AgentStep } from '../../../shared/agents/types';
import { rate } from '../../../shared/agents/verdict';
import type { Block } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import { capText, failureOf, replyText, schemaErrors, statusOf } from '../probes/harness';

type ToolCall = Extract<Block, { kind: 'tool_call' }>;

/** What the agent would show when a request fails, from the run's own status and message. */
export function failureWords(run: FinishedRun): string {
  return failureOf(run).message;
}

export type TurnJudgement = { ok: true; call: ToolCall; step: AgentStep } | { ok: false; step: AgentStep };

/** Turn one: the terminal event reached, and a streamed call to the tool asked for whose arguments validate. */
export function judgeToolTurn(
  run: FinishedRun,
  o: { id: string; title: string; tool: string; schema: object; agent: string },
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
        consequence: `${o.agent} would stop on its first request: ${words}`,
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
  o: { id: string; title: string; agent: string; sent: string },
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
    consequence: `${o.agent} would fail on its second turn${often}: ${words}`,
  };
}

/** One replayed session: its runs, and the run it failed on or why (a timeout, a line the agent cannot read). */
export interface SessionRun {
  runs: FinishedRun[];
  failed?: FinishedRun;
  failure?: string;
}

/**
 * Whole sessions, counted as the agent's user meets them: "k of n sessions" failed, and what the first failure
 * looked like. A 400 is final for both CLIs (neither retries it), so the count is what the user sees.
 */
export function judgeSessions(
  sessions: SessionRun[],
  o: { id: string; title: string; agent: string; sent: string },
): AgentStep {
  const n = sessions.length;
  const runIds = sessions.flatMap((s) => s.runs.map((r) => r.ledger.runId));
  const bad = sessions.filter((s) => s.failed || s.failure);
  const base = { id: o.id, title: o.title, runIds };
  if (bad.length === 0) {
    const last = sessions[0].runs.at(-1);
    return {
      ...base,
      outcome: 'pass',
      status: last && statusOf(last),
      evidence: `${n} of ${n} sessions completed: turn 2 sent ${o.sent}.`,
    };
  }
  const first = bad[0];
  const words = first.failure ?? (first.failed ? failureWords(first.failed) : 'no answer');
  const onTurn2 = first.failed !== undefined && first.runs.indexOf(first.failed) === 1;
  const where = onTurn2 ? 'on its second turn' : 'on its first request';
  const k = bad.length;
  const intermittent = k < n;
  return {
    ...base,
    outcome: 'fail',
    status: first.failed && statusOf(first.failed),
    evidence: `${rate(k, n)} sessions failed${intermittent ? ' — intermittently' : ''}, first in session ${sessions.indexOf(first) + 1} ${where}.`,
    consequence: intermittent
      ? `${o.agent} would fail ${rate(k, n)} sessions, ${where}: ${words}`
      : `${o.agent} would fail ${where}: ${words}`,
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

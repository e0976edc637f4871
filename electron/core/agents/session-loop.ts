/**
 * A replayed agent's sessions (replay.ts): turn 1 and turn 2 as the captured CLI sends them, run as whole
 * sessions one after another, judged as the agent would read each answer (agent-reading.ts).
 */
import { AGENTS, type AgentId, type AgentStep } from '../../../shared/agents/types';
import type { Block } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import type { CapturedAgent } from './captures';
import { agentStops, resendsUnstreamed } from './agent-reading';
import { afterRetriesWords, mayRetry } from './retries';
import { replaySession, type ReplayRequest, type ReplaySource } from './replay';
import { judgeCache, judgeSessions, judgeToolTurn, judgeUsage, skipped, type SessionRun } from './steps';

type Json = Record<string, unknown>;
type ToolCall = Extract<Block, { kind: 'tool_call' }>;
/** The agents replayed as whole sessions (the chat-completions agent keeps check.ts's turn-2 repeats). */
type SessionAgent = Extract<CapturedAgent, AgentId>;
export type ReplaySend = (body: Json, as: ReplayRequest) => Promise<FinishedRun | { timeout: string }>;

/** A step whose request got no answer in time. */
export const timedOut = (id: string, title: string, why: string): AgentStep => ({
  id,
  title,
  outcome: 'fail',
  evidence: why,
  runIds: [],
});

/** A turn as the agent sends it: the answer it ends on, and the refused attempts it sent again before that. */
export interface AgentSend {
  run: FinishedRun | { timeout: string };
  retried: FinishedRun[];
}

/**
 * Sends a turn as `agent` would: a refusal it retries (retries.ts, measured on the real CLI) is sent again
 * while its retries last, a request that got no HTTP answer at all (a reset connection) once, as both CLIs do,
 * and a stream Claude Code cannot parse before any text once more without `stream` (agent-reading.ts).
 */
export async function sendAsAgent(send: ReplaySend, agent: AgentId, r: ReplayRequest): Promise<AgentSend> {
  const retried: FinishedRun[] = [];
  let reset = false;
  let req = r;
  for (;;) {
    const run = await send(req.body, req);
    if (!('timeout' in run) && req === r && resendsUnstreamed(agent, run)) {
      // As Claude Code does on a malformed line before any text: the same turn, without `stream`.
      const { stream: _stream, ...body } = r.body;
      req = { ...r, body };
      retried.push(run);
      continue;
    }
    if ('timeout' in run || run.result.verdict === 'complete') return { run, retried };
    const status = run.response?.status;
    const again = status === undefined ? !reset : status >= 400 && mayRetry(agent, status, retried.length);
    if (!again) return { run, retried };
    if (status === undefined) reset = true;
    retried.push(run);
  }
}

/** A run the agent reads through: complete, and nothing in it that ends this agent. */
function agentFailure(agent: AgentId, run: FinishedRun | { timeout: string }): string | undefined {
  if ('timeout' in run) return run.timeout;
  if (run.result.verdict !== 'complete') return undefined;
  return agentStops(agent, run);
}

/** One more session after the first: its turn 1, the tool call, its turn 2. */
async function oneSession(
  send: ReplaySend,
  agent: SessionAgent,
  model: string,
  source?: ReplaySource,
): Promise<SessionRun> {
  const session = replaySession(agent, model, source);
  const a1 = await sendAsAgent(send, agent, session.turn1);
  const t1 = a1.run;
  if ('timeout' in t1) return { runs: [], retried: a1.retried, failure: t1.timeout };
  const call = t1.result.transcript.blocks.find((b): b is ToolCall => b.kind === 'tool_call' && b.complete);
  const stop = agentFailure(agent, t1);
  if (t1.result.verdict !== 'complete' || !call || stop)
    return { runs: [t1], retried: a1.retried, failed: t1, failure: stop };
  return secondTurn(send, agent, t1, a1.retried, session.turn2(t1.result.transcript, call));
}

/** Turn 2 of a session whose turn 1 (`t1`, after `retried`) called the tool. */
async function secondTurn(
  send: ReplaySend,
  agent: SessionAgent,
  t1: FinishedRun,
  retried: FinishedRun[],
  turn2: ReplayRequest,
): Promise<SessionRun> {
  const a2 = await sendAsAgent(send, agent, turn2);
  const all = [...retried, ...a2.retried];
  const t2 = a2.run;
  if ('timeout' in t2) return { runs: [t1], retried: all, failure: t2.timeout };
  const stop2 = agentFailure(agent, t2);
  return t2.result.verdict !== 'complete' || stop2
    ? { runs: [t1, t2], retried: all, failed: t2, failure: stop2 }
    : { runs: [t1, t2], retried: all };
}

/** Turn 1 judged, what comes back checked (`between`), then whole sessions; cache and usage. */
export async function sessionLoop(
  send: ReplaySend,
  o: { agent: SessionAgent; model: string; sessions: number; sent: string; source?: ReplaySource },
  between?: (run: FinishedRun) => AgentStep | undefined,
): Promise<AgentStep[]> {
  const name = AGENTS[o.agent].sentenceName;
  const session = replaySession(o.agent, o.model, o.source);
  const as = o.source ? 'as the saved session sent it' : `as ${name} ${session.capture.version} sends it`;
  const title = `Turn 1: ${session.tool} call (${as})`;
  const a1 = await sendAsAgent(send, o.agent, session.turn1);
  const first = a1.run;
  if ('timeout' in first) return [timedOut('turn-1', title, first.timeout)];
  const turn1 = judgeToolTurn(first, {
    id: 'turn-1',
    title,
    tool: session.tool,
    schema: session.schema,
    agent: name,
    after: (status) => afterRetriesWords(o.agent, name, status),
  });
  const stop = turn1.ok ? agentStops(o.agent, first) : undefined;
  if (stop) {
    turn1.step.outcome = 'fail';
    turn1.step.evidence = stop;
    turn1.step.consequence = `${name} would stop on its first request: ${stop}`;
  }
  const sessionsTitle = `Whole sessions ×${o.sessions} (turn 1 + turn 2)`;
  if (!turn1.ok || stop) return [turn1.step, skipped('turn-2', sessionsTitle, 'not run: turn 1 failed.')];
  const steps = [turn1.step];
  const extra = between?.(first);
  if (extra) steps.push(extra);
  const sessions = [
    await secondTurn(send, o.agent, first, a1.retried, session.turn2(first.result.transcript, turn1.call)),
  ];
  for (let i = 1; i < o.sessions; i++) sessions.push(await oneSession(send, o.agent, o.model, o.source));
  const judged = judgeSessions(sessions, {
    id: 'turn-2',
    title: sessionsTitle,
    agent: name,
    agentId: o.agent,
    sent: o.sent,
  });
  if (extra?.outcome === 'fail' && judged.outcome === 'fail') extra.consequence = judged.consequence;
  const turn2s = sessions.flatMap((s) => (s.runs[1] ? [s.runs[1]] : []));
  steps.push(judged, judgeCache(turn2s, name), judgeUsage(first, name));
  return steps;
}

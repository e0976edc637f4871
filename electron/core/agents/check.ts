/**
 * One agent check: the scripted session (sessions.ts) sent turn by turn as ordinary runs (origin "probe",
 * so every step has a ledger and its events), judged step by step (steps.ts), ending in one verdict.
 */
import { randomUUID } from 'node:crypto';
import { AGENTS, type AgentId, type AgentResult, type AgentStep } from '../../../shared/agents/types';
import { verdictOf } from '../../../shared/agents/verdict';
import type { Block } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import { ProbeEnv, ProbeStop, type ProbeDeps } from '../probes/harness';
import { agentStops } from './agent-reading';
import { countTokensExchange } from './count-tokens';
import { agentHeaders } from './headers';
import { replayedName, replaySession, type ReplayRequest, type ReplaySource } from './replay';
import { asCapture, type SavedReplay } from './saved-replays';
import { sendAsAgent, sessionLoop, timedOut, type ReplaySend } from './session-loop';
import { afterRetriesWords } from './retries';
import { claudeCountTokens, claudeSmallModel } from './sessions';
import { failureWords, judgeCache, judgeRepeats, judgeToolTurn, judgeUsage, skipped } from './steps';

/** The stateless second turn is sent this many times: intermittent faults are looked for, not hoped away. */
export const TURN2_REPEATS = 5;
/**
 * A replayed agent runs this many whole sessions (turn 1 and turn 2 as the agent sends them), one after
 * another: a relay that rotates upstream keys per request meets them at different points of its rotation.
 */
export const SESSIONS = 4;
/** Longest one request of a check may take before it counts as failed. */
export const AGENT_RUN_TIMEOUT_MS = 120_000;

export interface AgentCheckInput {
  profileId: string;
  agent: AgentId;
  model: string;
  smallModel?: string;
  /** A session saved from "Connect an agent", replayed in place of the agent's capture. */
  replay?: SavedReplay;
}

type Json = Record<string, unknown>;
type ToolCall = Extract<Block, { kind: 'tool_call' }>;

/** Sends one body; a timeout (ProbeStop) becomes a failed step rather than an exception. */
type Send = (
  body: Json,
  as?: { headers: Record<string, string>; path: string },
) => Promise<FinishedRun | { timeout: string }>;

/** Every request goes out with the agent's own headers: the captured ones for a replay, else headers.ts. */
function sender(env: ProbeEnv, agent: AgentId): Send {
  return async (body, as) => {
    try {
      const query = as?.path.split('?')[1];
      return await env.send(body, undefined, as?.headers ?? agentHeaders(agent, body), query);
    } catch (err) {
      if (err instanceof ProbeStop) return { timeout: err.verdict.message };
      throw err;
    }
  };
}

/** Turn 2 sent TURN2_REPEATS times, each as the agent sends it: a refusal it retries is sent again (retries.ts). */
async function repeats(send: Send, agent: AgentId, as: ReplayRequest): Promise<FinishedRun[] | AgentStep> {
  const runs: FinishedRun[] = [];
  for (let i = 0; i < TURN2_REPEATS; i++) {
    const { run } = await sendAsAgent(send, agent, as);
    if ('timeout' in run) return timedOut('turn-2', 'Turn 2 (stateless)', run.timeout);
    runs.push(run);
  }
  return runs;
}

/** Turn 1 → the repeated turn 2 → cache and usage: the part every agent shares. */
async function toolLoop(
  send: Send,
  o: {
    agent: AgentId;
    turn1: ReplayRequest;
    tool: string;
    schema: object;
    turn2: (run: FinishedRun, call: ToolCall) => ReplayRequest;
    sent: string;
  },
  between?: (run: FinishedRun) => AgentStep | undefined,
): Promise<AgentStep[]> {
  const name = AGENTS[o.agent].sentenceName;
  const { run: first } = await sendAsAgent(send, o.agent, o.turn1);
  if ('timeout' in first) return [timedOut('turn-1', 'Turn 1: tool call', first.timeout)];
  const turn1 = judgeToolTurn(first, {
    id: 'turn-1',
    title: 'Turn 1: tool call',
    tool: o.tool,
    schema: o.schema,
    agent: name,
    after: (status) => afterRetriesWords(o.agent, name, status),
  });
  const stop = turn1.ok ? agentStops(o.agent, first) : undefined;
  if (stop) {
    turn1.step.outcome = 'fail';
    turn1.step.evidence = stop;
    turn1.step.consequence = `${name} would stop on its first request: ${stop}`;
  }
  if (!turn1.ok || stop) return [turn1.step, skipped('turn-2', 'Turn 2 (stateless)', 'not run: turn 1 failed.')];
  const steps = [turn1.step];
  const extra = between?.(first);
  if (extra) steps.push(extra);
  const second = o.turn2(first, turn1.call);
  const runs = await repeats(send, o.agent, second);
  if (!Array.isArray(runs)) return [...steps, runs];
  const title = `Turn 2 (stateless) ×${TURN2_REPEATS}`;
  const after = (status?: number) => afterRetriesWords(o.agent, name, status);
  const turn2 = judgeRepeats(runs, { id: 'turn-2', title, agent: name, sent: o.sent, after });
  if (extra?.outcome === 'fail' && turn2.outcome === 'fail') extra.consequence = turn2.consequence;
  steps.push(turn2, judgeCache(runs, name), judgeUsage(first, name));
  return steps;
}

function codexReasoning(run: FinishedRun): AgentStep {
  const items = run.result.transcript.blocks.filter((b) => b.kind === 'thinking' && b.item);
  const base = {
    id: 'reasoning',
    title: 'Encrypted reasoning returned',
    runIds: [run.ledger.runId],
    status: run.response?.status,
  };
  if (items.length === 0)
    return { ...base, outcome: 'skip', evidence: 'the model returned no reasoning item (not a reasoning model).' };
  const missing = items.some((b) => b.kind === 'thinking' && typeof b.item?.encrypted_content !== 'string');
  if (missing) {
    return {
      ...base,
      outcome: 'fail',
      evidence:
        'the reasoning item came back without encrypted_content although include asked for it: ' +
        'the relay dropped include.',
      consequence: 'Codex would fail on its second turn: the reasoning item cannot be sent back with store: false.',
    };
  }
  return { ...base, outcome: 'pass', evidence: 'the reasoning item carries encrypted_content.' };
}

function claudeThinking(run: FinishedRun): AgentStep {
  const blocks = run.result.transcript.blocks.filter(
    (b): b is Extract<Block, { kind: 'thinking' }> => b.kind === 'thinking',
  );
  const base = {
    id: 'thinking',
    title: 'Signed thinking returned',
    runIds: [run.ledger.runId],
    status: run.response?.status,
  };
  if (blocks.length === 0)
    return { ...base, outcome: 'skip', evidence: 'the model returned no thinking block (no extended thinking).' };
  if (blocks.some((b) => !b.redacted && !b.signature)) {
    return {
      ...base,
      outcome: 'fail',
      evidence: 'a thinking block came back without its signature: the relay strips signatures.',
      consequence: 'Claude Code would fail on its second turn: a thinking block cannot be sent back unsigned.',
    };
  }
  return { ...base, outcome: 'pass', evidence: `${blocks.length} thinking block(s) with a signature.` };
}

/** Codex's captured sessions; its reasoning items must come back encrypted to be sent back. */
function codexSteps(send: Send, model: string, source?: ReplaySource): Promise<AgentStep[]> {
  return sessionLoop(
    replayed(send),
    {
      agent: 'codex',
      model,
      sessions: SESSIONS,
      sent: 'the reasoning item, the function_call and its output',
      source,
    },
    codexReasoning,
  );
}

const replayed =
  (send: Send): ReplaySend =>
  (body, as) =>
    send(body, as);

async function smallModelStep(send: Send, smallModel: string, model: string): Promise<AgentStep> {
  const small = await send(claudeSmallModel(smallModel));
  const title = `Small fast model (${smallModel}${smallModel === model ? ', the main model' : ''})`;
  if ('timeout' in small) return timedOut('small-model', title, small.timeout);
  const base = { id: 'small-model', title, status: small.response?.status, runIds: [small.ledger.runId] };
  if (small.result.verdict === 'complete')
    return { ...base, outcome: 'pass', evidence: 'answered a short streamed request.' };
  const words = failureWords(small);
  return { ...base, outcome: 'fail', evidence: words, consequence: `Claude Code's side requests would fail: ${words}` };
}

async function claudeSteps(
  send: Send,
  env: ProbeEnv,
  model: string,
  smallModel: string | undefined,
  source?: ReplaySource,
): Promise<AgentStep[]> {
  const { turn1 } = replaySession('claude-code', model, source);
  const steps: AgentStep[] = [await countTokensExchange(env, claudeCountTokens(turn1.body))];
  if (smallModel) steps.push(await smallModelStep(send, smallModel, model));
  const loop = await sessionLoop(
    replayed(send),
    {
      agent: 'claude-code',
      model,
      sessions: SESSIONS,
      sent: 'the signed thinking block, the tool_use and its tool_result',
      source,
    },
    claudeThinking,
  );
  return [...steps, ...loop];
}

/** The chat-completions agent is Qwen Code's captured session (replay.ts), judged turn 1 then turn 2 repeated. */
async function chatSteps(send: Send, model: string, source?: ReplaySource): Promise<AgentStep[]> {
  const session = replaySession('qwen-code', model, source);
  return toolLoop(send, {
    agent: 'chat-agent',
    turn1: session.turn1,
    tool: session.tool,
    schema: session.schema,
    turn2: (run, call) => session.turn2(run.result.transcript, call),
    sent: 'the assistant tool_calls and the tool message (tool_call_id round-tripped)',
  });
}

/** "the saved session “Codex on the relay” (codex_exec/0.171.0 on gpt-sim-o3, 2026-11-28)". */
const savedName = (r: SavedReplay): string =>
  `the saved session “${r.name}” (${r.client} on ${r.model}, ${r.savedAt.slice(0, 10)})`;

export async function checkAgent(deps: ProbeDeps, input: AgentCheckInput, signal: AbortSignal): Promise<AgentResult> {
  const t0 = Date.now();
  const info = AGENTS[input.agent];
  const env = new ProbeEnv(
    deps,
    { profileId: input.profileId, model: input.model, protocol: info.protocol, capability: 'tools' },
    signal,
    AGENT_RUN_TIMEOUT_MS,
    {
      source: 'agents',
      check: { id: `check_${randomUUID()}`, label: `Agents · ${info.label} · ${input.model}`, unit: 'step' },
    },
  );
  const send = sender(env, input.agent);
  const { replay } = input;
  const source = replay && { capture: asCapture(replay), tool: replay.tool, turns: replay.turns };
  const steps =
    input.agent === 'codex'
      ? await codexSteps(send, input.model, source)
      : input.agent === 'claude-code'
        ? await claudeSteps(send, env, input.model, input.smallModel, source)
        : await chatSteps(send, input.model, source);
  const { level, verdict } = verdictOf(steps);
  return {
    agent: input.agent,
    model: input.model,
    ...(replay ? { replayId: replay.id } : {}),
    ...(input.smallModel && info.hasSmallModel ? { smallModel: input.smallModel } : {}),
    replayed: replay
      ? savedName(replay)
      : replayedName(input.agent === 'chat-agent' ? 'qwen-code' : input.agent, input.model),
    level,
    verdict,
    steps,
    at: new Date().toISOString(),
    durationMs: Date.now() - t0,
  };
}

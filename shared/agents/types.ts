/**
 * Agent readiness (docs/agents.md): which coding agents are checked, over which protocol, and what a check
 * records. Plain data: it crosses the contract, is stored per profile and is rendered into reports.
 */
import type { ProtocolId } from '../protocols/types';

export const AGENT_IDS = ['codex', 'claude-code', 'chat-agent'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export interface AgentInfo {
  /** What the Agent combobox shows. */
  label: string;
  /** How verdict sentences name it: "Codex would fail on its second turn". */
  sentenceName: string;
  protocol: ProtocolId;
  endpoints: string;
  /** Claude Code also sends short side requests to a small fast model. */
  hasSmallModel: boolean;
}

export const AGENTS: Record<AgentId, AgentInfo> = {
  codex: {
    label: 'Codex CLI',
    sentenceName: 'Codex',
    protocol: 'responses',
    endpoints: '/v1/responses',
    hasSmallModel: false,
  },
  'claude-code': {
    label: 'Claude Code',
    sentenceName: 'Claude Code',
    protocol: 'messages',
    endpoints: '/v1/messages, /v1/messages/count_tokens',
    hasSmallModel: true,
  },
  'chat-agent': {
    label: 'Chat-completions agent',
    sentenceName: 'The agent',
    protocol: 'chat',
    endpoints: '/v1/chat/completions',
    hasSmallModel: false,
  },
};

/** pass: proven; warn: works but costs more or loses a feature; fail: the agent cannot get past it; skip: not run. */
export const STEP_OUTCOMES = ['pass', 'warn', 'fail', 'skip'] as const;
export type StepOutcome = (typeof STEP_OUTCOMES)[number];

/** A request that is not a run (count_tokens): what went out and what came back, key redacted. */
export interface StepExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  error?: string;
}

export interface AgentStep {
  id: string;
  title: string;
  outcome: StepOutcome;
  /** What was seen, in words. */
  evidence: string;
  status?: number;
  /** Runs that make up this step (open in the stream viewer or the composer). */
  runIds: string[];
  exchange?: StepExchange;
  /** What the user would see in the agent when this step fails or warns. */
  consequence?: string;
}

export const AGENT_LEVELS = ['ready', 'degraded', 'not-ready'] as const;
export type AgentLevel = (typeof AGENT_LEVELS)[number];

export interface AgentResult {
  agent: AgentId;
  model: string;
  /** A session saved as a replay (Connect an agent's "Save as replay") was checked instead of a capture. */
  replayId?: string;
  smallModel?: string;
  /**
   * The agent release whose captured requests were replayed ("Claude Code 2.1.197 on an id it does not know");
   * absent for a hand-written replay and in results stored before captures.
   */
  replayed?: string;
  level: AgentLevel;
  /** One sentence starting with "ready", "degraded" or "not ready". */
  verdict: string;
  steps: AgentStep[];
  /** ISO time the check finished. */
  at: string;
  durationMs: number;
}

export const agentResultKey = (r: { agent: AgentId; model: string; replayId?: string }): string =>
  r.replayId ? `${r.agent}|${r.model}|${r.replayId}` : `${r.agent}|${r.model}`;

/**
 * A connected agent's session saved as a replay (docs/agents.md "Saved replays"), as listed: which check it
 * runs as, what sent it, and the tool its turn one called. Its requests stay in the core.
 */
export interface SavedReplayInfo {
  id: string;
  name: string;
  /** The check it runs as: Claude Code's on Messages, Codex's on Responses, the chat agent's on chat completions. */
  agent: AgentId;
  /** What sent it, from its user-agent: `claude-cli/2.1.197`, `codex_exec/0.171.0`. */
  client: string;
  profileName: string;
  /** The model the session was recorded on. */
  model: string;
  savedAt: string;
  /** The tool its turn one called; a check of it asks the model for the same call. */
  tool: string;
  requests: number;
}

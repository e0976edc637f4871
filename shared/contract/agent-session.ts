import { z } from 'zod';
import { defineCall } from './define';
import type { Verdict } from '../protocols/types';

/**
 * "Connect an agent" (docs/agents.md §"Connect a real agent"): a local endpoint on 127.0.0.1 that a real coding
 * agent uses as its gateway. The token is made for this session only; it is not the profile's key, and is
 * shown so that it can be pasted as the agent's key.
 */
export interface AgentConnection {
  sessionId: string;
  profileId: string;
  profileName: string;
  port: number;
  /** `http://127.0.0.1:PORT`, without `/v1`. */
  baseUrl: string;
  token: string;
  startedAt: string;
}

/** Which agent sent a turn, as its own headers say. */
export type AgentKind = 'claude-code' | 'codex' | 'chat' | 'other';

/** One exchange of a connected agent, as it happens: a run in History with origin "agent". */
export interface AgentTurn {
  runId: string;
  sessionId: string;
  method: string;
  /** The path as the agent asked for it, query string included (`/v1/messages?beta=true`). */
  path: string;
  agent: AgentKind;
  model?: string;
  startedAt: string;
  status?: number;
  /** Absent while the turn is in flight. */
  verdict?: Verdict;
  reason?: string;
  ttftMs?: number;
  totalMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Where the turn failed: what the agent does next, in one sentence. */
  next?: string;
}

/** Core → the windows that connected or asked: a turn that started or changed, or the session that ended. */
export type AgentSessionUpdate =
  { kind: 'turn'; sessionId: string; turn: AgentTurn } | { kind: 'closed'; sessionId: string; reason: string };

export interface AgentSessionState {
  connection?: AgentConnection;
  turns: AgentTurn[];
}

export const agentSessionCalls = {
  /** Opens the agent endpoint for this profile (a session already open is closed first). */
  'agents:connect': defineCall<AgentConnection>()(z.object({ profileId: z.string().min(1).max(100) }).strict()),
  /** Closes the endpoint: its port stops listening and its token is forgotten. */
  'agents:disconnect': defineCall<{ closed: boolean }>()(z.object({}).strict()),
  /** The open session and its turns so far (a reloaded window asks). */
  'agents:session': defineCall<AgentSessionState>()(z.object({}).strict()),
};

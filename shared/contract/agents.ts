import { z } from 'zod';
import { defineCall } from './define';
import { AGENT_IDS, type AgentResult, type SavedReplayInfo } from '../agents/types';

export type { AgentId, AgentLevel, AgentResult, AgentStep, SavedReplayInfo, StepExchange } from '../agents/types';

/** A stored result as listed: how old it is, measured by the core's clock. */
export interface AgentResultView extends AgentResult {
  ageMs: number;
}

export interface AgentList {
  profileId: string;
  results: AgentResultView[];
}

/** The capability matrix and the agent matrix of one profile, ready to save; no key in either. */
export interface AgentReport {
  fileBase: string;
  markdown: string;
  html: string;
}

const ProfileId = z.string().min(1).max(100);
const ModelId = z.string().min(1).max(200);

export const AgentCheckInput = z
  .object({
    profileId: ProfileId,
    agent: z.enum(AGENT_IDS),
    model: ModelId,
    /** Claude Code's small fast model; ignored for the other agents. */
    smallModel: ModelId.optional(),
    /** A saved replay (`replays:list`) checked in place of the agent's capture; its agent must be `agent`. */
    replayId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type AgentCheckInput = z.input<typeof AgentCheckInput>;

export const agentCalls = {
  'agents:list': defineCall<AgentList>()(z.object({ profileId: ProfileId }).strict()),
  /** Runs one check to its end (seconds to minutes) and stores its result. */
  'agents:check': defineCall<AgentResult>()(AgentCheckInput),
  /**
   * Stops the checks of this profile that the caller started and that are still running (Check all's Stop);
   * a stopped check answers `cancelled` and stores nothing.
   */
  'agents:cancel': defineCall<{ cancelled: number }>()(z.object({ profileId: ProfileId }).strict()),
  'agents:report': defineCall<AgentReport>()(z.object({ profileId: ProfileId }).strict()),
};

/**
 * Sessions recorded through "Connect an agent", saved as replays (docs/agents.md "Saved replays"): their
 * requests stay in the core, scrubbed; `agents:check` with a `replayId` checks one on any model and profile.
 */
export const replayCalls = {
  'replays:list': defineCall<SavedReplayInfo[]>()(z.object({}).strict()),
  /** Saves the session these runs (its exchanges, origin "agent") belong to. */
  'replays:save': defineCall<SavedReplayInfo>()(
    z
      .object({
        name: z.string().trim().min(1).max(120),
        runIds: z.array(z.string().min(1).max(100)).min(1).max(500),
      })
      .strict(),
  ),
  'replays:delete': defineCall<{ deleted: boolean }>()(z.object({ id: z.string().min(1).max(100) }).strict()),
};

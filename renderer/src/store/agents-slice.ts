import type { StateCreator } from 'zustand';
import type {
  AgentCheckInput,
  AgentList,
  AgentReport,
  AgentResult,
  AppError,
  Result,
  SavedReplayInfo,
} from '../../../shared/contract';
import { AGENT_IDS, AGENTS, agentResultKey } from '../../../shared/agents/types';
import { defaultSmallModel } from '../../../shared/agents/small-model';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** What Check all is doing: cells done of the whole, and whether the user asked it to stop. */
export interface AgentSweep {
  profileId: string;
  done: number;
  total: number;
  stopping: boolean;
}

/** Agent check results as the core stores them (cached here, persisted there), and the checks in flight. */
export interface AgentsSlice {
  agentResults: Record<string, AgentList | undefined>;
  /** `profileId|agent|model` of the checks in flight. */
  agentChecksRunning: Record<string, true>;
  agentSweep?: AgentSweep;
  agentResultsRequested(profileId: string): Promise<void>;
  agentCheckRequested(input: AgentCheckInput): Promise<AppError | undefined>;
  /**
   * Every agent × every given model, up to AGENT_CHECKS_AT_ONCE models at once and one model's agents one
   * after another, each result shown as it lands.
   */
  agentCheckAllRequested(profileId: string, models: string[], smallModel?: string): Promise<AppError | undefined>;
  /** Stop: no further check starts, and the checks in flight are cancelled (they store nothing). */
  agentCheckAllStopped(): void;
  agentReportRequested(profileId: string): Promise<Result<AgentReport>>;
  /** Connected sessions saved as replays (docs/agents.md "Saved replays"), newest first. */
  savedReplays: SavedReplayInfo[];
  savedReplaysRequested(): Promise<void>;
  /** Saves the session these runs belong to; the new replay is listed first. */
  replaySaveRequested(name: string, runIds: string[]): Promise<Result<SavedReplayInfo>>;
}

/**
 * Models Check all checks at once. The checks share nothing in the app (each its own session and runs), but
 * they share the gateway: a few at once is faster without flooding it.
 */
export const AGENT_CHECKS_AT_ONCE = 3;

const runningKey = (i: AgentCheckInput) => `${i.profileId}|${i.agent}|${i.model}${i.replayId ? `|${i.replayId}` : ''}`;

function merged(list: AgentList | undefined, profileId: string, result: AgentResult): AgentList {
  const others = (list?.results ?? []).filter((r) => agentResultKey(r) !== agentResultKey(result));
  return { profileId, results: [{ ...result, ageMs: 0 }, ...others] };
}

export const createAgentsSlice: StateCreator<AppState, [], [], AgentsSlice> = (set, get) => ({
  agentResults: {},
  agentChecksRunning: {},
  agentSweep: undefined,
  async agentResultsRequested(profileId) {
    const r = await gateway.agents.list({ profileId });
    if (r.ok) set((s) => ({ agentResults: { ...s.agentResults, [profileId]: r.value } }));
  },
  async agentCheckRequested(input) {
    const key = runningKey(input);
    set((s) => ({ agentChecksRunning: { ...s.agentChecksRunning, [key]: true } }));
    const r = await gateway.agents.check(input);
    set((s) => {
      const { [key]: _done, ...rest } = s.agentChecksRunning;
      return r.ok
        ? {
            agentChecksRunning: rest,
            agentResults: {
              ...s.agentResults,
              [input.profileId]: merged(s.agentResults[input.profileId], input.profileId, r.value),
            },
          }
        : { agentChecksRunning: rest };
    });
    return r.ok ? undefined : r.error;
  },
  async agentCheckAllRequested(profileId, models, smallModel) {
    set({ agentSweep: { profileId, done: 0, total: models.length * AGENT_IDS.length, stopping: false } });
    let firstError: AppError | undefined;
    const queue = [...models];
    // One lane per model (docs/agents.md): a relay that pools upstream keys rotates them over a model's
    // requests, and two checks of one model at once would each see part of the rotation and could miss its failures.
    const lane = async () => {
      for (let model = queue.shift(); model !== undefined; model = queue.shift()) {
        for (const agent of AGENT_IDS) {
          if (get().agentSweep?.stopping) return;
          // The same steps as Check: Claude Code's small-model step too, with the model Check would default to.
          const small = AGENTS[agent].hasSmallModel
            ? { smallModel: smallModel ?? defaultSmallModel(models, model) }
            : {};
          const err = await get().agentCheckRequested({ profileId, agent, model, ...small });
          // A check cancelled by Stop is what the user asked for, not an error to show.
          if (err?.code !== 'cancelled') firstError ??= err;
          set((s) => ({ agentSweep: s.agentSweep && { ...s.agentSweep, done: s.agentSweep.done + 1 } }));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AGENT_CHECKS_AT_ONCE, models.length) }, lane));
    set({ agentSweep: undefined });
    return firstError;
  },
  agentCheckAllStopped() {
    const sweep = get().agentSweep;
    if (!sweep || sweep.stopping) return;
    set({ agentSweep: { ...sweep, stopping: true } });
    void gateway.agents.cancel({ profileId: sweep.profileId });
  },
  agentReportRequested(profileId) {
    return gateway.agents.report({ profileId });
  },
  savedReplays: [],
  async savedReplaysRequested() {
    const r = await gateway.replays.list({});
    if (r.ok) set({ savedReplays: r.value });
  },
  async replaySaveRequested(name, runIds) {
    const r = await gateway.replays.save({ name, runIds });
    if (r.ok) set((s) => ({ savedReplays: [r.value, ...s.savedReplays.filter((x) => x.id !== r.value.id)] }));
    return r;
  },
});

import type { StateCreator } from 'zustand';
import type { AgentCheckInput, AgentList, AgentReport, AgentResult, AppError, Result } from '../../../shared/contract';
import { AGENT_IDS, agentResultKey } from '../../../shared/agents/types';
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
  /** Every agent × every given model, one check at a time, each result shown as it lands. */
  agentCheckAllRequested(profileId: string, models: string[], smallModel?: string): Promise<AppError | undefined>;
  agentCheckAllStopped(): void;
  agentReportRequested(profileId: string): Promise<Result<AgentReport>>;
}

const runningKey = (i: AgentCheckInput) => `${i.profileId}|${i.agent}|${i.model}`;

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
    const cells = models.flatMap((model) => AGENT_IDS.map((agent) => ({ profileId, agent, model, smallModel })));
    set({ agentSweep: { profileId, done: 0, total: cells.length, stopping: false } });
    let firstError: AppError | undefined;
    for (const cell of cells) {
      if (get().agentSweep?.stopping) break;
      firstError ??= await get().agentCheckRequested(cell);
      set((s) => ({ agentSweep: s.agentSweep && { ...s.agentSweep, done: s.agentSweep.done + 1 } }));
    }
    set({ agentSweep: undefined });
    return firstError;
  },
  agentCheckAllStopped() {
    set((s) => ({ agentSweep: s.agentSweep && { ...s.agentSweep, stopping: true } }));
  },
  agentReportRequested(profileId) {
    return gateway.agents.report({ profileId });
  },
});

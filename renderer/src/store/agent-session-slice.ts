import type { StateCreator } from 'zustand';
import type { AgentConnection, AgentSessionUpdate, AgentTurn, AppError } from '../../../shared/contract';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** "Connect an agent": the open session (port, local token) and its turns as they happen. */
export interface AgentSessionSlice {
  agentConnection?: AgentConnection;
  /** The session's turns, oldest first. */
  agentTurns: AgentTurn[];
  /** Why the last session ended, when it ended on its own (the profile changed). */
  agentSessionEnded?: string;
  agentSessionRequested(): Promise<void>;
  agentConnectRequested(profileId: string): Promise<AppError | undefined>;
  agentDisconnectRequested(): Promise<AppError | undefined>;
  agentSessionUpdated(update: AgentSessionUpdate): void;
}

export const createAgentSessionSlice: StateCreator<AppState, [], [], AgentSessionSlice> = (set, get) => ({
  agentConnection: undefined,
  agentTurns: [],
  agentSessionEnded: undefined,
  async agentSessionRequested() {
    const r = await gateway.agents.session({});
    if (r.ok) set({ agentConnection: r.value.connection, agentTurns: r.value.turns });
  },
  async agentConnectRequested(profileId) {
    const r = await gateway.agents.connect({ profileId });
    if (!r.ok) return r.error;
    set({ agentConnection: r.value, agentTurns: [], agentSessionEnded: undefined });
    return undefined;
  },
  async agentDisconnectRequested() {
    const r = await gateway.agents.disconnect({});
    if (!r.ok) return r.error;
    set({ agentConnection: undefined, agentSessionEnded: undefined });
    return undefined;
  },
  agentSessionUpdated(update) {
    if (update.sessionId !== get().agentConnection?.sessionId) return;
    if (update.kind === 'closed') {
      set({ agentConnection: undefined, agentSessionEnded: update.reason });
      return;
    }
    const { turn } = update;
    set((s) => {
      const at = s.agentTurns.findIndex((t) => t.runId === turn.runId);
      if (at === -1) return { agentTurns: [...s.agentTurns, turn] };
      const agentTurns = s.agentTurns.slice();
      agentTurns[at] = turn;
      return { agentTurns };
    });
  },
});

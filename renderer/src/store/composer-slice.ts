import type { StateCreator } from 'zustand';
import type { ProtocolId, Transcript } from '../../../shared/protocols/types';
import { appendAssistantTurn, appendToolResults, defaultBody, type ToolResult } from '../../../shared/protocols/compose';
import type { AppState } from './index';

export type Body = Record<string, unknown>;
export type TabId = ProtocolId | 'compare' | 'capabilities' | 'history' | 'presets';

export interface ComposerState {
  /** The request body: the single source of truth the form and the JSON editor both show. */
  body: Body;
  /** The JSON editor's text; differs from `body` only while it does not parse. */
  jsonText: string;
  jsonError?: string;
  /** The user turn being written ("Message"). */
  draft: string;
  activeRunId?: string;
  /**
   * The run whose reply is already in the conversation (by Continue or by sending tool results). Kept here, not
   * in the component, because the Composer remounts on every tab switch and must not append the same turn twice.
   */
  continuedRunId?: string;
  /** Runs of this tab, newest last. */
  runIds: string[];
  /** Capability warnings the user accepted when bringing this request here (kept in the next run's ledger). */
  warnings: string[];
  /** Where a request brought back from History will be sent, when that is not where it was sent before. */
  note?: string;
}

export interface ComposerSlice {
  activeTab: TabId;
  composers: Record<ProtocolId, ComposerState>;
  tabSelected(tab: TabId): void;
  composerBodyEdited(protocol: ProtocolId, body: Body): void;
  composerJsonTyped(protocol: ProtocolId, text: string): void;
  composerDraftTyped(protocol: ProtocolId, text: string): void;
  composerRunStarted(protocol: ProtocolId, runId: string): void;
  /** Continue: the run's reply becomes the conversation's next assistant turn, once per run. */
  composerTurnContinued(protocol: ProtocolId, runId: string, transcript: Transcript): void;
  /** The user answered the run's tool calls: its reply (unless already continued) and the results join the conversation. Returns the new body. */
  composerToolResultsAnswered(protocol: ProtocolId, runId: string, transcript: Transcript, results: ToolResult[]): Body;
  composerWarningsAccepted(protocol: ProtocolId, warnings: string[]): void;
  /** A recorded run's request came back from History: its body, and a note when Send now goes to another gateway. */
  composerRunReopened(protocol: ProtocolId, body: Body, note?: string): void;
  composerNoteDismissed(protocol: ProtocolId): void;
}

const pretty = (b: Body) => JSON.stringify(b, null, 2);

function initial(protocol: ProtocolId): ComposerState {
  const body = defaultBody(protocol);
  return { body, jsonText: pretty(body), draft: '', runIds: [], warnings: [] };
}

export const createComposerSlice: StateCreator<AppState, [], [], ComposerSlice> = (set, get) => {
  const patch = (protocol: ProtocolId, fn: (c: ComposerState) => Partial<ComposerState>) =>
    set((s) => ({ composers: { ...s.composers, [protocol]: { ...s.composers[protocol], ...fn(s.composers[protocol]) } } }));
  return {
    activeTab: 'messages',
    composers: { messages: initial('messages'), chat: initial('chat'), responses: initial('responses') },
    tabSelected: (tab) => set({ activeTab: tab }),
    composerBodyEdited: (protocol, body) => patch(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined })),
    composerJsonTyped: (protocol, text) =>
      patch(protocol, () => {
        try {
          const parsed: unknown = JSON.parse(text);
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { jsonText: text, jsonError: 'The request body must be a JSON object.' };
          return { jsonText: text, body: parsed as Body, jsonError: undefined };
        } catch (err) {
          return { jsonText: text, jsonError: (err as Error).message };
        }
      }),
    composerDraftTyped: (protocol, text) => patch(protocol, () => ({ draft: text })),
    composerRunStarted: (protocol, runId) => patch(protocol, (c) => ({ activeRunId: runId, runIds: [...c.runIds, runId], warnings: [], note: undefined })),
    composerTurnContinued: (protocol, runId, transcript) =>
      patch(protocol, (c) => {
        if (c.continuedRunId === runId) return {};
        const body = appendAssistantTurn(protocol, c.body, transcript);
        return { body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId };
      }),
    composerToolResultsAnswered: (protocol, runId, transcript, results) => {
      const c = get().composers[protocol];
      const withReply = c.continuedRunId === runId ? c.body : appendAssistantTurn(protocol, c.body, transcript);
      const body = appendToolResults(protocol, withReply, results);
      patch(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId }));
      return body;
    },
    composerWarningsAccepted: (protocol, warnings) => patch(protocol, () => ({ warnings })),
    composerRunReopened: (protocol, body, note) => patch(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined, note })),
    composerNoteDismissed: (protocol) => patch(protocol, () => ({ note: undefined })),
  };
};

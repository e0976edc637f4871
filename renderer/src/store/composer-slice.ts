import type { StateCreator } from 'zustand';
import type { ProtocolId, Transcript } from '../../../shared/protocols/types';
import { appendAssistantTurn, appendToolResults, defaultBody, type ToolResult } from '../../../shared/protocols/compose';
import type { AppState } from './index';

export type Body = Record<string, unknown>;
export type TabId = ProtocolId | 'compare' | 'capabilities' | 'agents' | 'history' | 'presets';

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
  /**
   * The run that was active when a whole other body was loaded: its reply and tool calls belong to another
   * conversation, so Continue and tool results must not act on this body. Its output stays on view.
   */
  detachedRunId?: string;
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
  /** A form or JSON edit of the current body: the conversation goes on with the same run. */
  composerBodyEdited(protocol: ProtocolId, body: Body): void;
  /**
   * A whole body replaced the current one (a preset, a translated request, a curl import): the previous run no
   * longer answers this body. `warnings` are the capability warnings accepted for this body, if any.
   */
  composerBodyLoaded(protocol: ProtocolId, body: Body, warnings?: string[]): void;
  composerJsonTyped(protocol: ProtocolId, text: string): void;
  composerDraftTyped(protocol: ProtocolId, text: string): void;
  composerRunStarted(protocol: ProtocolId, runId: string): void;
  /** Continue: the run's reply becomes the conversation's next assistant turn, once per run. */
  composerTurnContinued(protocol: ProtocolId, runId: string, transcript: Transcript): void;
  /**
   * Responses only: the conversation goes on by reference. The body names the reply in `previous_response_id`
   * and keeps no earlier turns, so the next Send carries only the new one (the gateway holds the rest, if it
   * stored the reply).
   */
  composerChainedById(protocol: ProtocolId, runId: string, responseId: string): void;
  /** The answers to `answeredRunId`'s tool calls went out in `body` (see `withToolResults`): that body is now the conversation. */
  composerToolResultsSent(protocol: ProtocolId, answeredRunId: string, body: Body): void;
  /** A recorded run's request came back from History: its body (loaded as `composerBodyLoaded` does), and a note when Send now goes to another gateway. */
  composerRunReopened(protocol: ProtocolId, body: Body, note?: string): void;
  composerNoteDismissed(protocol: ProtocolId): void;
}

const pretty = (b: Body) => JSON.stringify(b, null, 2);

function initial(protocol: ProtocolId): ComposerState {
  const body = defaultBody(protocol);
  return { body, jsonText: pretty(body), draft: '', runIds: [], warnings: [] };
}

/**
 * The body that answers `runId`'s tool calls: its reply (unless Continue already added it), then the results.
 * Not committed: a send that fails must leave the body as it was, or a retry would append the results again.
 */
export function withToolResults(protocol: ProtocolId, c: ComposerState, runId: string, transcript: Transcript, results: ToolResult[]): Body {
  const withReply = c.continuedRunId === runId ? c.body : appendAssistantTurn(protocol, c.body, transcript);
  return appendToolResults(protocol, withReply, results);
}

/** A body that is not the previous run's conversation: nothing of that run (reply, tool calls, warnings, note) applies to it. */
const loaded = (c: ComposerState, body: Body, warnings: string[]): Partial<ComposerState> => ({
  body,
  jsonText: pretty(body),
  jsonError: undefined,
  detachedRunId: c.activeRunId,
  warnings,
  note: undefined,
});

export const createComposerSlice: StateCreator<AppState, [], [], ComposerSlice> = (set) => {
  const patch = (protocol: ProtocolId, fn: (c: ComposerState) => Partial<ComposerState>) =>
    set((s) => ({ composers: { ...s.composers, [protocol]: { ...s.composers[protocol], ...fn(s.composers[protocol]) } } }));
  return {
    activeTab: 'messages',
    composers: { messages: initial('messages'), chat: initial('chat'), responses: initial('responses') },
    tabSelected: (tab) => set({ activeTab: tab }),
    composerBodyEdited: (protocol, body) => patch(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined })),
    composerBodyLoaded: (protocol, body, warnings = []) => patch(protocol, (c) => loaded(c, body, warnings)),
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
    composerRunStarted: (protocol, runId) =>
      patch(protocol, (c) => ({ activeRunId: runId, detachedRunId: undefined, runIds: [...c.runIds, runId], warnings: [], note: undefined })),
    composerTurnContinued: (protocol, runId, transcript) =>
      patch(protocol, (c) => {
        if (c.continuedRunId === runId || c.detachedRunId === runId) return {};
        const body = appendAssistantTurn(protocol, c.body, transcript);
        return { body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId };
      }),
    composerChainedById: (protocol, runId, responseId) =>
      patch(protocol, (c) => {
        if (c.continuedRunId === runId || c.detachedRunId === runId) return {};
        const body = { ...c.body, previous_response_id: responseId, input: [] };
        return { body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId };
      }),
    composerToolResultsSent: (protocol, answeredRunId, body) =>
      patch(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined, continuedRunId: answeredRunId })),
    composerRunReopened: (protocol, body, note) => patch(protocol, (c) => ({ ...loaded(c, body, []), note })),
    composerNoteDismissed: (protocol) => patch(protocol, () => ({ note: undefined })),
  };
};

import type { StateCreator } from 'zustand';
import type {
  CallInput,
  CallOutput,
  ComposerDrafts,
  RequestDraft,
  CurlImport,
  ExportLanguage,
  Preset,
  Result,
  TokenCount,
} from '../../../shared/contract';
import type { ProtocolId, Transcript } from '../../../shared/protocols/types';
import {
  appendAssistantTurn,
  appendToolResults,
  defaultBody,
  getModel,
  type ToolResult,
} from '../../../shared/protocols/compose';
import { gateway } from '../bridge';
import { emptiedConversation } from '../features/composer/conversation-rules';
import { keepTurns, replaceFrom, type ReplyVariant } from '../features/conversation/conversation-edits';
import type { AppState } from './index';
import { DRAFT_SAVE_MS, scheduleDraftSave } from './draft-save';
import { markActiveUnsent, markUnsent, patchStashed, restoredRequests } from './requests';
import { selectActiveRequestName } from './requests-slice';

export { DRAFT_SAVE_MS };

export type Body = Record<string, unknown>;
import type { TabId } from '../../../shared/contract';
export type { TabId };

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
  /** The last change that replaced the conversation (a preset, New conversation, Reset to sample): Undo reverts it. */
  undo?: ComposerUndo;
  /** Set by the user's own edits: a draft restored from the core never replaces them. */
  touched?: boolean;
  /** Regenerate: the replies to the same turns (the first `at`), each a run or turns that were in the body. */
  variants?: { at: number; items: ReplyVariant[] };
}

/** What an undoable change replaced, and the words for it ("Loaded preset “Daily”"). */
export interface ComposerUndo {
  label: string;
  previous: Omit<ComposerState, 'undo' | 'runIds'>;
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
  /**
   * A run of this tab's request started. `requestId`: the request Send was pressed on, when the user may have
   * switched to another while the core answered; the run then joins that one, not the one on view.
   */
  composerRunStarted(protocol: ProtocolId, runId: string, requestId?: string): void;
  /** Continue: the run's reply becomes the conversation's next assistant turn, once per run. */
  composerTurnContinued(protocol: ProtocolId, runId: string, transcript: Transcript): void;
  /**
   * Responses only: the conversation goes on by reference. The body names the reply in `previous_response_id`
   * and keeps no earlier turns, so the next Send carries only the new one (the gateway holds the rest, if it
   * stored the reply).
   */
  composerChainedById(protocol: ProtocolId, runId: string, responseId: string): void;
  /**
   * The answers to `answeredRunId`'s tool calls went out in `body` (see `withToolResults`): that body is now the
   * conversation, and the Message box that went with them is emptied.
   */
  composerToolResultsSent(protocol: ProtocolId, answeredRunId: string, body: Body): void;
  /**
   * A recorded run's request came back ("Open in composer"): it replaces the tab's work undoably, with the old
   * output set aside, as a preset does; `note` says when Send now goes to another gateway.
   */
  composerRunReopened(protocol: ProtocolId, body: Body, note?: string): void;
  composerNoteDismissed(protocol: ProtocolId): void;
  /** Send joined the finished reply of `runId` to the conversation (see `withReplyAt`): `body` went out. */
  composerReplyJoined(protocol: ProtocolId, runId: string, body: Body): void;
  /** Edit on a message: `body` has it changed and the turns after it set aside; `label` says so. Undoable. */
  conversationMessageEdited(protocol: ProtocolId, body: Body, label: string): void;
  /** Branch: a new request tab holding the conversation up to a message (`body`), named "<name> branch". */
  conversationBranched(protocol: ProtocolId, body: Body): void;
  /** Regenerate started a new run of `body` (the turns the replies answer): `variants` are all the replies so far. */
  conversationRegenerated(protocol: ProtocolId, body: Body, variants: { at: number; items: ReplyVariant[] }): void;
  /** "Previous" / "Next" between regenerated replies: the one shown is the one the conversation goes on with. */
  conversationVariantShown(protocol: ProtocolId, index: number): void;
  /**
   * A preset went into its protocol's tab, or `translated` into another's: undoable, with the old output set
   * aside. Returns the note the tab shows.
   */
  composerPresetLoaded(preset: Preset, translated?: { protocol: ProtocolId; body: Body }): { label: string };
  /** "New conversation": the turns, the message and the output go; system prompt and parameters stay. Undoable. */
  composerConversationCleared(protocol: ProtocolId): void;
  /** "Reset to sample": the sample request (on the same model), undoable. */
  composerSampleRestored(protocol: ProtocolId): void;
  composerUndoRequested(protocol: ProtocolId): void;
  composerUndoDismissed(protocol: ProtocolId): void;
  /** The gateway's models arrived and this tab names none: the one to start with (see `defaultModel`). */
  composerModelDefaulted(protocol: ProtocolId, model: string): void;
  /** The input-token count of a body, by the core (the gateway's count_tokens when it can). */
  tokenCountRequested(input: CallInput<'tokens:count'>): Promise<Result<TokenCount>>;
  /** "Code…": a recorded run's request as it was sent (`runId`), or a composer body for `profileId`. */
  codeExportRequested(
    language: ExportLanguage,
    source: { runId: string } | { profileId: string; protocol: ProtocolId; body: Body },
  ): Promise<Result<CallOutput<'export:code'>>>;
  /** A pasted curl command: what it names replaces its protocol's tab's work, undoably, as a preset does. */
  curlImportRequested(text: string): Promise<Result<CurlImport>>;
  /** Reads the requests the core kept; from then on every change of a tab's requests is saved, debounced. */
  draftsRequested(): Promise<void>;
  draftsState: 'idle' | 'loading' | 'ready';
  /** Why the last draft save failed, until one succeeds. */
  draftsError?: string;
}

const pretty = (b: Body) => JSON.stringify(b, null, 2);

/** A new request: the sample body, on `model` when one is given. */
export function freshComposer(protocol: ProtocolId, model?: string): ComposerState {
  const body = defaultBody(protocol, model);
  return { body, jsonText: pretty(body), draft: '', runIds: [], warnings: [] };
}
const initial = (protocol: ProtocolId) => freshComposer(protocol);

/** A kept request as it comes back after a restart. */
const restoredState = (protocol: ProtocolId, d: RequestDraft): ComposerState => ({
  ...initial(protocol),
  ...bodyFields(d.body),
  draft: d.draft,
  runIds: d.runIds,
  activeRunId: d.activeRunId,
  continuedRunId: d.continuedRunId,
  detachedRunId: d.detachedRunId,
});

/** A new body, as the form, the JSON and the conversation all show it. */
const bodyFields = (body: Body) => ({ body, jsonText: pretty(body), jsonError: undefined });

/** What Undo puts back. */
function previousOf(c: ComposerState): ComposerUndo['previous'] {
  const { undo: _undo, runIds: _runIds, ...previous } = c;
  return previous;
}

/** `c` with `body` in place of its conversation and its output set aside; `label` says what happened, Undo reverts. */
function replaced(c: ComposerState, body: Body, label: string): Partial<ComposerState> {
  const previous = previousOf(c);
  return {
    body,
    jsonText: pretty(body),
    jsonError: undefined,
    draft: '',
    activeRunId: undefined,
    continuedRunId: undefined,
    // The run set aside answered the old conversation: its reply must not join the new one.
    detachedRunId: c.activeRunId,
    warnings: [],
    note: undefined,
    variants: undefined,
    undo: { label, previous },
  };
}

/**
 * The body that answers `runId`'s tool calls: its reply (unless Continue already added it), then the results.
 * Not committed: a send that fails must leave the body as it was, or a retry would append the results again.
 */
export function withToolResults(
  protocol: ProtocolId,
  c: ComposerState,
  runId: string,
  transcript: Transcript,
  results: ToolResult[],
): Body {
  const withReply = c.continuedRunId === runId ? c.body : appendAssistantTurn(protocol, c.body, transcript);
  return appendToolResults(protocol, withReply, results);
}

/** A body that is not the previous run's conversation: nothing of that run (reply, tool calls, warnings) applies. */
const loaded = (c: ComposerState, body: Body, warnings: string[]): Partial<ComposerState> => ({
  touched: true,
  body,
  jsonText: pretty(body),
  jsonError: undefined,
  detachedRunId: c.activeRunId,
  warnings,
  note: undefined,
});

export const createComposerSlice: StateCreator<AppState, [], [], ComposerSlice> = (set, get) => {
  /** `unsent`: set the request's dot when its body or message changes (set by edits, cleared by a send). */
  const patch = (protocol: ProtocolId, fn: (c: ComposerState) => Partial<ComposerState>, unsent = false) => {
    const before = get().composers[protocol];
    set((s) => ({
      composers: { ...s.composers, [protocol]: { ...s.composers[protocol], ...fn(s.composers[protocol]) } },
    }));
    const after = get().composers[protocol];
    const changed = after.body !== before.body || after.draft !== before.draft;
    // Only the active request's flag, and only when it flips: no work over all requests per keystroke.
    if (changed && unsent) {
      const requests = get().requests;
      const marked = markActiveUnsent(requests[protocol], true);
      if (marked !== requests[protocol]) set({ requests: { ...requests, [protocol]: marked } });
    }
    if (changed || after.runIds !== before.runIds) scheduleDraftSave(get, set, protocol);
  };
  /** A change the user made: from then on a restored draft leaves this tab alone. */
  const edit = (protocol: ProtocolId, fn: (c: ComposerState) => Partial<ComposerState>) =>
    patch(protocol, (c) => ({ ...fn(c), touched: true }), true);
  /** The body becomes what a run just started with (Regenerate, tool results): the user's, but nothing unsent. */
  const sent = (protocol: ProtocolId, fn: (c: ComposerState) => Partial<ComposerState>) =>
    patch(protocol, (c) => ({ ...fn(c), touched: true }));
  return {
    activeTab: 'messages',
    composers: { messages: initial('messages'), chat: initial('chat'), responses: initial('responses') },
    draftsState: 'idle',
    tabSelected: (tab) => {
      set({ activeTab: tab });
      // Kept by the core with the theme (never web storage), so the next start opens on this tab.
      void gateway.settings.update({ lastTab: tab }).then((r) => r.ok && set({ settings: r.value }));
    },
    composerBodyEdited: (protocol, body) =>
      edit(protocol, () => ({ body, jsonText: pretty(body), jsonError: undefined })),
    composerBodyLoaded: (protocol, body, warnings = []) => patch(protocol, (c) => loaded(c, body, warnings)),
    composerJsonTyped: (protocol, text) =>
      edit(protocol, () => {
        try {
          const parsed: unknown = JSON.parse(text);
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            return { jsonText: text, jsonError: 'The request body must be a JSON object.' };
          return { jsonText: text, body: parsed as Body, jsonError: undefined };
        } catch (err) {
          return { jsonText: text, jsonError: (err as Error).message };
        }
      }),
    composerDraftTyped: (protocol, text) => edit(protocol, () => ({ draft: text })),
    composerRunStarted: (protocol, runId, requestId) => {
      const requests = get().requests;
      const r = requests[protocol];
      const id = requestId ?? r.activeId;
      const started = (c: ComposerState): Partial<ComposerState> => ({
        activeRunId: runId,
        detachedRunId: undefined,
        runIds: [...c.runIds, runId],
        warnings: [],
        note: undefined,
        undo: undefined,
        variants: undefined,
      });
      const marked = markUnsent(r, id, false);
      if (id === r.activeId) {
        set({ requests: { ...requests, [protocol]: marked } });
        patch(protocol, started);
        return;
      }
      set({ requests: { ...requests, [protocol]: patchStashed(marked, id, started) } });
      scheduleDraftSave(get, set, protocol);
    },
    composerTurnContinued: (protocol, runId, transcript) =>
      edit(protocol, (c) => {
        if (c.continuedRunId === runId || c.detachedRunId === runId) return {};
        const body = appendAssistantTurn(protocol, c.body, transcript);
        return { body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId };
      }),
    composerChainedById: (protocol, runId, responseId) =>
      edit(protocol, (c) => {
        if (c.continuedRunId === runId || c.detachedRunId === runId) return {};
        const body = { ...c.body, previous_response_id: responseId, input: [] };
        return { body, jsonText: pretty(body), jsonError: undefined, continuedRunId: runId };
      }),
    composerToolResultsSent: (protocol, answeredRunId, body) =>
      sent(protocol, () => ({
        body,
        jsonText: pretty(body),
        jsonError: undefined,
        continuedRunId: answeredRunId,
        draft: '',
      })),
    composerRunReopened: (protocol, body, note) =>
      edit(protocol, (c) => ({ ...replaced(c, body, 'Opened a recorded request'), note })),
    composerNoteDismissed: (protocol) => patch(protocol, () => ({ note: undefined })),
    composerReplyJoined: (protocol, runId, body) =>
      edit(protocol, () => ({ ...bodyFields(body), continuedRunId: runId, draft: '' })),
    conversationMessageEdited: (protocol, body, label) =>
      edit(protocol, (c) => ({ ...bodyFields(body), undo: { label, previous: previousOf(c) } })),
    conversationBranched: (protocol, body) =>
      get().requestOpened(protocol, { body, name: `${selectActiveRequestName(protocol)(get())} branch` }),
    conversationRegenerated: (protocol, body, variants) => sent(protocol, () => ({ ...bodyFields(body), variants })),
    conversationVariantShown: (protocol, index) =>
      edit(protocol, (c) => {
        const v = c.variants?.items[index];
        if (!c.variants || !v) return {};
        if ('turns' in v)
          return { ...bodyFields(replaceFrom(protocol, c.body, c.variants.at, v.turns)), detachedRunId: c.activeRunId };
        return {
          ...bodyFields(keepTurns(protocol, c.body, c.variants.at)),
          activeRunId: v.runId,
          detachedRunId: undefined,
          continuedRunId: c.continuedRunId === v.runId ? undefined : c.continuedRunId,
        };
      }),
    composerPresetLoaded(preset, translated) {
      const label = `Loaded preset “${preset.name}”${translated ? ', translated' : ''}`;
      const into = translated ?? { protocol: preset.protocol, body: { ...preset.body, stream: preset.stream } };
      edit(into.protocol, (c) => replaced(c, into.body, label));
      return { label };
    },
    composerConversationCleared: (protocol) =>
      edit(protocol, (c) => replaced(c, emptiedConversation(protocol, c.body), 'New conversation')),
    composerSampleRestored: (protocol) =>
      edit(protocol, (c) => replaced(c, defaultBody(protocol, getModel(c.body)), 'Reset to sample')),
    composerUndoRequested: (protocol) => edit(protocol, (c) => (c.undo ? { ...c.undo.previous, undo: undefined } : {})),
    composerUndoDismissed: (protocol) => patch(protocol, () => ({ undo: undefined })),
    composerModelDefaulted: (protocol, model) =>
      patch(protocol, (c) => {
        if (getModel(c.body)) return {};
        const { model: _none, ...rest } = c.body;
        const body = { model, ...rest };
        return { body, jsonText: c.jsonError ? c.jsonText : pretty(body) };
      }),
    tokenCountRequested: (input) => gateway.tokens.count(input),
    codeExportRequested: (language, source) =>
      'runId' in source
        ? gateway.history.code({ runId: source.runId, language })
        : gateway.export.code({ ...source, language }),
    async curlImportRequested(text) {
      const r = await gateway.import.curl({ text });
      const { protocol, body } = r.ok ? r.value : {};
      if (protocol && body) edit(protocol, (c) => replaced(c, body, 'Imported from curl'));
      return r;
    },
    async draftsRequested() {
      if (get().draftsState !== 'idle') return;
      set({ draftsState: 'loading' });
      const r = await gateway.drafts.list({});
      if (r.ok) restoreRequests(r.value.drafts);
      const error = r.ok ? undefined : `the kept drafts could not be read (${r.error.message})`;
      // A lost link to the host leaves saving off until the drafts are read once it is back (the connection
      // slice asks again): an edit now would write over a draft never shown.
      const retry = !r.ok && r.error.code === 'disconnected';
      set({ draftsState: retry ? 'idle' : 'ready', draftsError: error });
    },
  };

  function restoreRequests(drafts: ComposerDrafts) {
    for (const protocol of Object.keys(drafts) as ProtocolId[]) {
      const saved = drafts[protocol];
      if (!saved) continue;
      const s = get();
      const active = s.composers[protocol];
      const current = { requests: s.requests[protocol], active };
      const out = restoredRequests(saved, current, !!active.touched, (d) => restoredState(protocol, d));
      set({
        requests: { ...s.requests, [protocol]: out.requests },
        composers: { ...s.composers, [protocol]: out.active },
      });
    }
  }
};

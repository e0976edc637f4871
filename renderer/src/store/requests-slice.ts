/**
 * Several requests open in each protocol tab (the tab list "Requests"): the active one is `composers[protocol]`,
 * the others wait in `requests[protocol].stashed` (see requests.ts, pure). Every change is saved with the drafts.
 */
import type { StateCreator } from 'zustand';
import type { ProtocolId } from '../../../shared/protocols/types';
import { PROTOCOL_IDS } from '../../../shared/protocols/types';
import { getModel } from '../../../shared/protocols/compose';
import { freshComposer, type Body, type ComposerState } from './composer-slice';
import { scheduleDraftSave } from './draft-save';
import type { AppState } from './index';
import {
  closeRequest,
  nextRequestName,
  openRequest,
  renameRequest,
  reopenRequest,
  selectRequest,
  singleRequest,
  stateOf,
  type ProtocolRequests,
  type RequestsAndActive,
} from './requests';

/** What a new request starts from: by default the sample body on the current model. */
export interface RequestSeed {
  body?: Body;
  /** Capability warnings accepted for `body` (a request brought from another protocol). */
  warnings?: string[];
  name?: string;
}

export interface RequestsSlice {
  requests: Record<ProtocolId, ProtocolRequests>;
  /** "New request" (Ctrl/Cmd+T), a branch or a request brought from another protocol: a new tab, on view. */
  requestOpened(protocol: ProtocolId, seed?: RequestSeed): void;
  requestSelected(protocol: ProtocolId, id: string): void;
  /** × or Ctrl/Cmd+W: kept for "Reopen closed request"; the last one closed leaves a fresh one. */
  requestClosed(protocol: ProtocolId, id: string): void;
  /** "Reopen closed request" (Ctrl/Cmd+Shift+T): the last closed one, back in its place. */
  requestReopened(protocol: ProtocolId): void;
  requestRenamed(protocol: ProtocolId, id: string, name: string): void;
  /** A copy of request `id` (body and Message box, no runs) named "<name> copy", right after it. */
  requestDuplicated(protocol: ProtocolId, id: string): void;
}

/** The name of the request on view in `protocol` (an atomic selector). */
export const selectActiveRequestName = (protocol: ProtocolId) => (s: AppState) =>
  s.requests[protocol].tabs.find((t) => t.id === s.requests[protocol].activeId)?.name ?? '';

/** A copy of a request's work, without its runs, Undo or notes. */
function copied(protocol: ProtocolId, c: ComposerState): ComposerState {
  return { ...freshComposer(protocol), body: c.body, jsonText: c.jsonText, jsonError: c.jsonError, draft: c.draft };
}

export const createRequestsSlice: StateCreator<AppState, [], [], RequestsSlice> = (set, get) => {
  const apply = (
    protocol: ProtocolId,
    change: (r: ProtocolRequests, a: ComposerState) => RequestsAndActive | undefined,
  ) => {
    const s = get();
    const out = change(s.requests[protocol], s.composers[protocol]);
    if (!out) return;
    set({
      requests: { ...s.requests, [protocol]: out.requests },
      composers: { ...s.composers, [protocol]: out.active },
    });
    scheduleDraftSave(get, set, protocol);
  };
  return {
    requests: Object.fromEntries(PROTOCOL_IDS.map((p) => [p, singleRequest()])) as Record<ProtocolId, ProtocolRequests>,
    requestOpened: (protocol, seed = {}) =>
      apply(protocol, (r, active) => {
        const fresh = freshComposer(protocol, getModel(active.body));
        const state = seed.body ? { ...fresh, ...bodyState(seed.body), warnings: seed.warnings ?? [] } : fresh;
        return openRequest(r, active, { ...state, touched: true }, seed.name ?? nextRequestName(r));
      }),
    requestSelected: (protocol, id) => apply(protocol, (r, active) => selectRequest(r, active, id)),
    requestClosed: (protocol, id) =>
      apply(protocol, (r, active) =>
        closeRequest(r, active, id, () => ({ ...freshComposer(protocol, getModel(active.body)), touched: true })),
      ),
    requestReopened: (protocol) => apply(protocol, reopenRequest),
    requestRenamed: (protocol, id, name) =>
      apply(protocol, (r, active) => ({ requests: renameRequest(r, id, name), active })),
    requestDuplicated: (protocol, id) =>
      apply(protocol, (r, active) => {
        const source = stateOf(r, active, id);
        const tab = r.tabs.find((t) => t.id === id);
        if (!source || !tab) return undefined;
        return openRequest(r, active, { ...copied(protocol, source), touched: true }, `${tab.name} copy`, id);
      }),
  };
};

const bodyState = (body: Body) => ({ body, jsonText: JSON.stringify(body, null, 2), jsonError: undefined });

import type { StateCreator } from 'zustand';
import type { AppError, HistorySummary, Preset } from '../../../shared/contract';
import type { ProtocolId } from '../../../shared/protocols/types';
import type { Body, ComposerState } from './composer-slice';
import { gateway } from '../bridge';
import type { AppState } from './index';
import { recordedRunUpdates } from './runs-slice';

export interface HistoryFilterState {
  protocol?: 'messages' | 'chat' | 'responses';
  verdict?: HistorySummary['verdict'];
  /** With verdict "complete": true finds runs that ended with warnings, false the clean ones. */
  withWarnings?: boolean;
  model?: string;
  text?: string;
}

/** Presets and the history list, as the core keeps them (cached here, persisted there). */
export interface LibrarySlice {
  presets: Preset[];
  history: { runs: HistorySummary[]; total: number; bytes: number };
  historyFilter: HistoryFilterState;
  /**
   * Presets deleted this session, newest last: what Undo brings back. Kept here, not in the Presets tab, so
   * switching tabs does not make a deletion final; deleting another must not make the first unrecoverable.
   */
  deletedPresets: Preset[];
  /**
   * The last preset loaded into a composer, with the composer as it was before: what "Undo" puts back. Stale once
   * that composer sends again (its run list grows past `before.runIds`): see `usePresetLoadNote`.
   */
  presetLoad?: { protocol: ProtocolId; name: string; before: ComposerState };
  presetsRequested(): Promise<void>;
  /**
   * A preset's body replaced a composer's (as `composerBodyLoaded` does): the output on view belonged to the
   * request replaced, so it is set aside (kept for Undo, no longer shown).
   */
  presetLoaded(protocol: ProtocolId, name: string, body: Body): void;
  presetLoadUndone(): void;
  presetLoadNoteDismissed(): void;
  presetDeleted(preset: Preset): void;
  presetRestored(id: string): void;
  historyRequested(filter?: HistoryFilterState): Promise<void>;
  /** Loads a recorded run into the runs cache, as it was, for the stream viewer. */
  recordedRunRequested(runId: string): Promise<AppError | undefined>;
}

/** History list requests sent so far: only the newest one's answer is shown. */
let listRequests = 0;

/** Recorded runs being fetched: a second request for one joins the first instead of loading it again. */
const loading = new Map<string, Promise<AppError | undefined>>();

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set, get) => ({
  presets: [],
  history: { runs: [], total: 0, bytes: 0 },
  historyFilter: {},
  deletedPresets: [],
  presetLoad: undefined,
  presetDeleted(preset) {
    set((s) => ({ deletedPresets: [...s.deletedPresets.filter((p) => p.id !== preset.id), preset] }));
  },
  presetRestored(id) {
    set((s) => ({ deletedPresets: s.deletedPresets.filter((p) => p.id !== id) }));
  },
  async presetsRequested() {
    const r = await gateway.presets.list({});
    if (!r.ok) return;
    const presets = r.value.presets;
    // A deleted preset that is back (imported again, restored elsewhere) has nothing left to undo: restoring it
    // again would add a duplicate, "weather tool (2)".
    const back = (d: Preset) => presets.some((p) => p.id === d.id || p.name === d.name);
    set((s) => ({ presets, deletedPresets: s.deletedPresets.some(back) ? s.deletedPresets.filter((d) => !back(d)) : s.deletedPresets }));
  },
  presetLoaded(protocol, name, body) {
    const before = get().composers[protocol];
    get().composerBodyLoaded(protocol, body);
    // A run still going stays on view (detached, as composerBodyLoaded leaves it), so it can still be stopped.
    const live = before.activeRunId !== undefined && get().runs[before.activeRunId]?.status !== 'done';
    set((s) => ({
      presetLoad: { protocol, name, before },
      composers: live ? s.composers : { ...s.composers, [protocol]: { ...s.composers[protocol], activeRunId: undefined, detachedRunId: undefined } },
    }));
  },
  presetLoadUndone() {
    const load = get().presetLoad;
    if (!load) return;
    set((s) => ({ presetLoad: undefined, composers: { ...s.composers, [load.protocol]: { ...load.before, runIds: s.composers[load.protocol].runIds } } }));
  },
  presetLoadNoteDismissed() {
    set({ presetLoad: undefined });
  },
  async historyRequested(filter) {
    const f = filter ?? get().historyFilter;
    set({ historyFilter: f });
    const mine = ++listRequests;
    if (filter === undefined) {
      // A run that could not be saved ends like any other: the core reports it among app:info's problems, so
      // they are read again when History is opened or refreshed (not on every keystroke of a filter).
      void Promise.resolve()
        .then(() => gateway.app.info({}))
        .then((info) => {
          if (info.ok) set({ appInfo: info.value });
        })
        .catch(() => undefined);
    }
    const r = await gateway.history.list({ ...f, limit: 500 });
    // Typing in a filter sends a list request per keystroke: an answer that arrives after a newer request was
    // sent is for a filter no longer shown.
    if (r.ok && mine === listRequests) set({ history: r.value });
  },
  recordedRunRequested(runId) {
    if (get().runs[runId]?.result) return Promise.resolve(undefined);
    const pending = loading.get(runId);
    if (pending) return pending;
    const load = (async () => {
      try {
        const r = await gateway.history.get({ runId });
        if (!r.ok) return r.error;
        get().runUpdatesReceived(recordedRunUpdates(runId, r.value));
        return undefined;
      } finally {
        loading.delete(runId);
      }
    })();
    loading.set(runId, load);
    return load;
  },
});

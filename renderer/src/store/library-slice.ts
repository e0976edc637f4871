import type { StateCreator } from 'zustand';
import type { AppError, HistorySummary, Preset } from '../../../shared/contract';
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
  presetsRequested(): Promise<void>;
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
  presetDeleted(preset) {
    set((s) => ({ deletedPresets: [...s.deletedPresets.filter((p) => p.id !== preset.id), preset] }));
  },
  presetRestored(id) {
    set((s) => ({ deletedPresets: s.deletedPresets.filter((p) => p.id !== id) }));
  },
  async presetsRequested() {
    const r = await gateway.presets.list({});
    if (r.ok) set({ presets: r.value.presets });
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

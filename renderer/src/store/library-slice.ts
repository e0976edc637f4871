import type { StateCreator } from 'zustand';
import type {
  AppError,
  CallInput,
  CallName,
  CallOutput,
  HistorySummary,
  HistoryExportFormat,
  Preset,
  Result,
  RunSource,
} from '../../../shared/contract';
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
  /** History's Source: the user's own runs unless they choose otherwise. */
  source?: RunSource | 'all';
}

/** What History shows before the user picks a Source: their own runs. */
export const HISTORY_DEFAULT_FILTER: HistoryFilterState = { source: 'mine' };

type Answer<K extends CallName> = Promise<Result<CallOutput<K>>>;

/** Presets and the history list, as the core keeps them (cached here, persisted there). */
export interface LibrarySlice {
  presets: Preset[];
  /**
   * The list as far as it has been fetched: `runs[i]` is the i-th run of `total` under the current filter, fetched
   * a page at a time as the list shows it (undefined until then), so 10,000 runs open as fast as 200.
   */
  history: { runs: (HistorySummary | undefined)[]; total: number; bytes: number };
  historyFilter: HistoryFilterState;
  /** The checks whose runs are shown under their row in History. */
  historyExpanded: string[];
  /**
   * Presets deleted this session, newest last: what Undo brings back. Kept here, not in the Presets tab, so
   * switching tabs does not make a deletion final; deleting another must not make the first unrecoverable.
   */
  deletedPresets: Preset[];
  presetsRequested(): Promise<void>;
  presetDeleted(preset: Preset): void;
  presetRestored(id: string): void;
  historyRequested(filter?: HistoryFilterState): Promise<void>;
  /** A check's row in History was opened or closed: the list is read again with its runs, or without. */
  historyCheckToggled(checkId: string): Promise<void>;
  /** Rename and Pin in History: the list is read again after either. */
  historyRunRenamed(runId: string, name: string): Answer<'history:rename'>;
  historyRunPinned(runId: string, pinned: boolean): Answer<'history:pin'>;
  /** Export HAR / Export JSON of the chosen runs: the file's name and text. */
  historyExportRequested(runIds: string[], format: HistoryExportFormat): Answer<'history:export'>;
  /** The list shows row `index`: its page is fetched unless it is there or on its way. */
  historyRowsShown(from: number, to: number): void;
  /** Loads a recorded run into the runs cache, as it was, for the stream viewer. */
  recordedRunRequested(runId: string): Promise<AppError | undefined>;
  /** A recorded run's ledger and events, for a replay, the composer or "Code…". */
  historyRunRequested(runId: string): Answer<'history:get'>;
  /** Delete in History: the run goes, and the list is read again whether or not the core could delete it. */
  historyRunDeleted(runId: string): Promise<void>;
  /** Save preset; the list is read again after a save. */
  presetSaveRequested(input: CallInput<'presets:save'>): Answer<'presets:save'>;
  presetRenameRequested(id: string, name: string): Answer<'presets:rename'>;
  presetDuplicateRequested(id: string): Answer<'presets:duplicate'>;
  /** Delete: the deleted preset is kept for Undo (`presetDeleted`); the list is read again either way. */
  presetDeleteRequested(id: string): Answer<'presets:delete'>;
  /** Undo of a delete: on success the preset leaves the undo list (`presetRestored`). */
  presetRestoreRequested(preset: Preset): Answer<'presets:restore'>;
  /** Export all (no `ids`) or the given presets, as the text of a presets file. */
  presetsExportRequested(ids?: string[]): Answer<'presets:export'>;
  presetsImportRequested(input: CallInput<'presets:import'>): Answer<'presets:import'>;
}

/** History list requests sent so far: only the newest one's answer is shown. */
let listRequests = 0;
/** Runs fetched per history:list call. */
export const HISTORY_PAGE = 200;
/** Pages being fetched for the current list (by page number); cleared when the filter changes. */
let pagesLoading = new Set<number>();

/** The list call for a filter: a check's runs grouped under one row, the opened checks' runs under it. */
function listFilter(f: HistoryFilterState, expanded: string[]): CallInput<'history:list'> {
  return { ...f, grouped: true, ...(expanded.length ? { expanded } : {}) };
}

/** Recorded runs being fetched: a second request for one joins the first instead of loading it again. */
const loading = new Map<string, Promise<AppError | undefined>>();

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set, get) => ({
  presets: [],
  history: { runs: [], total: 0, bytes: 0 },
  historyFilter: HISTORY_DEFAULT_FILTER,
  historyExpanded: [],
  deletedPresets: [],
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
    set((s) => ({
      presets,
      deletedPresets: s.deletedPresets.some(back) ? s.deletedPresets.filter((d) => !back(d)) : s.deletedPresets,
    }));
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
    pagesLoading = new Set([0]);
    const r = await gateway.history.list({ ...listFilter(f, get().historyExpanded), offset: 0, limit: HISTORY_PAGE });
    // Typing in a filter sends a list request per keystroke: an answer that arrives after a newer request was
    // sent is for a filter no longer shown.
    if (!r.ok || mine !== listRequests) return;
    pagesLoading.delete(0);
    const runs = new Array<HistorySummary | undefined>(r.value.total);
    r.value.runs.forEach((run, i) => (runs[i] = run));
    set({ history: { ...r.value, runs } });
  },
  historyRowsShown(from, to) {
    const { history, historyFilter, historyExpanded } = get();
    const mine = listRequests;
    for (let page = Math.floor(from / HISTORY_PAGE); page <= Math.floor(to / HISTORY_PAGE); page++) {
      const offset = page * HISTORY_PAGE;
      if (offset >= history.total || history.runs[offset] || pagesLoading.has(page)) continue;
      pagesLoading.add(page);
      const loading = pagesLoading;
      const filter = listFilter(historyFilter, historyExpanded);
      void gateway.history.list({ ...filter, offset, limit: HISTORY_PAGE }).then((r) => {
        loading.delete(page);
        if (!r.ok || mine !== listRequests) return;
        set((s) => {
          const runs = s.history.runs.slice();
          r.value.runs.forEach((run, i) => (runs[offset + i] = run));
          return { history: { ...s.history, runs } };
        });
      });
    }
  },
  historyRunRequested: (runId) => gateway.history.get({ runId }),
  async historyCheckToggled(checkId) {
    const open = get().historyExpanded;
    set({ historyExpanded: open.includes(checkId) ? open.filter((id) => id !== checkId) : [...open, checkId] });
    await get().historyRequested(get().historyFilter);
  },
  async historyRunRenamed(runId, name) {
    const r = await gateway.history.rename({ runId, name });
    void get().historyRequested(get().historyFilter);
    return r;
  },
  async historyRunPinned(runId, pinned) {
    const r = await gateway.history.pin({ runId, pinned });
    void get().historyRequested(get().historyFilter);
    return r;
  },
  historyExportRequested: (runIds, format) => gateway.history.export({ runIds, format }),
  async historyRunDeleted(runId) {
    await gateway.history.delete({ runId });
    void get().historyRequested();
  },
  async presetSaveRequested(input) {
    const r = await gateway.presets.save(input);
    if (r.ok) void get().presetsRequested();
    return r;
  },
  async presetRenameRequested(id, name) {
    const r = await gateway.presets.rename({ id, name });
    if (r.ok) void get().presetsRequested();
    return r;
  },
  async presetDuplicateRequested(id) {
    const r = await gateway.presets.duplicate({ id });
    void get().presetsRequested();
    return r;
  },
  async presetDeleteRequested(id) {
    const r = await gateway.presets.delete({ id });
    if (r.ok) get().presetDeleted(r.value.deleted);
    void get().presetsRequested();
    return r;
  },
  async presetRestoreRequested(preset) {
    const r = await gateway.presets.restore({ preset });
    if (r.ok) {
      get().presetRestored(preset.id);
      void get().presetsRequested();
    }
    return r;
  },
  presetsExportRequested: (ids) => gateway.presets.export(ids ? { ids } : {}),
  presetsImportRequested: (input) => gateway.presets.import(input),
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

import type { StateCreator } from 'zustand';
import type { LoadProgress, LoadRecord, LoadRecordSummary, LoadStartInput } from '../../../shared/contract';
import { LoadShapeSchema, type LoadShape, type ShapeKind } from '../../../shared/load/shape';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** The Load tab's form, kept here so a tab switch loses nothing. Numbers stay text while typed. */
export interface LoadSettings {
  /** 'messages' | 'chat' | 'responses' (that composer's current request) or `preset:<id>`. */
  source: string;
  /** Empty: the active profile. */
  profileId: string;
  /** Empty: the request's own model. */
  model: string;
  requests: string;
  concurrency: string;
  ratePerSec: string;
  durationCapS: string;
  /** The shape of traffic and the fields of each (features/load/shape-input.ts reads them). */
  shape: ShapeKind;
  rampFrom: string;
  rampTo: string;
  rampDurationS: string;
  soakRate: string;
  soakDurationS: string;
  arrival: 'steady' | 'poisson';
  stages: StageDraft[];
}

/** One stage as typed: closed loop (a concurrency) or open loop (a rate), for a number of seconds. */
export interface StageDraft {
  mode: 'concurrency' | 'rate';
  value: string;
  durationS: string;
}

/** The run in progress (or the last one), folded from its pushes: points accumulated; the shape it was given. */
export type LiveLoad = LoadProgress & { shape?: LoadShape };

export interface LoadSlice {
  loadSettings: LoadSettings;
  loadLive?: LiveLoad;
  loadRuns: LoadRecordSummary[];
  /** Whole records fetched so far, by id (the selected run and the two compared). */
  loadRecords: Record<string, LoadRecord>;
  loadSelectedId?: string;
  loadCompareIds: [string, string];
  loadError?: string;
  loadSettingsEdited(patch: Partial<LoadSettings>): void;
  loadStartRequested(input: LoadStartInput): Promise<void>;
  loadStopRequested(): Promise<void>;
  loadProgressReceived(p: LoadProgress): void;
  loadRunsRequested(): Promise<void>;
  loadRunSelected(loadId: string): Promise<void>;
  loadCompareChosen(slot: 0 | 1, loadId: string): Promise<void>;
  loadRunDeleted(loadId: string): Promise<void>;
}

export const DEFAULT_LOAD_SETTINGS: LoadSettings = {
  source: 'messages',
  profileId: '',
  model: '',
  requests: '50',
  concurrency: '8',
  ratePerSec: '',
  durationCapS: '',
  shape: 'fixed',
  rampFrom: '1',
  rampTo: '16',
  rampDurationS: '30',
  soakRate: '5',
  soakDurationS: '60',
  arrival: 'steady',
  stages: [
    { mode: 'concurrency', value: '4', durationS: '10' },
    { mode: 'concurrency', value: '16', durationS: '10' },
    { mode: 'concurrency', value: '4', durationS: '10' },
  ],
};

export const createLoadSlice: StateCreator<AppState, [], [], LoadSlice> = (set, get) => {
  const fetchRecord = async (loadId: string) => {
    if (get().loadRecords[loadId]) return;
    const r = await gateway.load.get({ loadId });
    if (r.ok) set((s) => ({ loadRecords: { ...s.loadRecords, [loadId]: r.value } }));
    else set({ loadError: r.error.message });
  };
  const begin = async (input: LoadStartInput) => {
    set({ loadError: undefined });
    const r = await gateway.load.start(input);
    if (!r.ok) {
      return set({ loadError: r.error.message });
    }
    set({
      loadLive: {
        loadId: r.value.loadId,
        state: 'running',
        total: input.requests,
        done: 0,
        failed: 0,
        inFlight: 0,
        elapsedMs: 0,
        points: [],
        rateLimits: [],
        shape: input.shape && LoadShapeSchema.parse(input.shape),
      },
    });
  };
  return {
    loadSettings: DEFAULT_LOAD_SETTINGS,
    loadRuns: [],
    loadRecords: {},
    loadCompareIds: ['', ''],

    loadSettingsEdited(patch) {
      set((s) => ({ loadSettings: { ...s.loadSettings, ...patch } }));
    },

    loadStartRequested: begin,

    async loadStopRequested() {
      const live = get().loadLive;
      if (live) await gateway.load.stop({ loadId: live.loadId });
    },

    loadProgressReceived(p) {
      const live = get().loadLive;
      if (!live || live.loadId !== p.loadId) return;
      set({
        loadLive: {
          ...live,
          state: p.state,
          total: p.total,
          done: p.done,
          failed: p.failed,
          inFlight: p.inFlight,
          elapsedMs: p.elapsedMs,
          overheadMs: p.overheadMs,
          stage: p.stage,
          durationS: p.durationS,
          skipped: p.skipped,
          points: p.points.length ? live.points.concat(p.points) : live.points,
          rateLimits: p.rateLimits.length ? live.rateLimits.concat(p.rateLimits) : live.rateLimits,
        },
      });
      if (p.state === 'finished' || p.state === 'stopped') {
        void fetchRecord(p.loadId).then(() => set({ loadSelectedId: p.loadId }));
        void get().loadRunsRequested();
      }
    },

    async loadRunsRequested() {
      const r = await gateway.load.list({});
      if (r.ok) set({ loadRuns: r.value.runs });
    },

    async loadRunSelected(loadId) {
      await fetchRecord(loadId);
      set({ loadSelectedId: loadId });
    },

    async loadCompareChosen(slot, loadId) {
      set((s) => {
        const ids: [string, string] = [...s.loadCompareIds];
        ids[slot] = loadId;
        return { loadCompareIds: ids };
      });
      if (loadId) await fetchRecord(loadId);
    },

    async loadRunDeleted(loadId) {
      const r = await gateway.load.delete({ loadId });
      if (!r.ok) return set({ loadError: r.error.message });
      set((s) => {
        const { [loadId]: _gone, ...records } = s.loadRecords;
        return {
          loadRecords: records,
          loadRuns: s.loadRuns.filter((x) => x.loadId !== loadId),
          loadSelectedId: s.loadSelectedId === loadId ? undefined : s.loadSelectedId,
          loadCompareIds: s.loadCompareIds.map((id) => (id === loadId ? '' : id)) as [string, string],
        };
      });
    },
  };
};

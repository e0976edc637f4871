import type { StateCreator } from 'zustand';
import type { CallInput, CallOutput } from '../../../shared/contract';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** A file the user chose, read as text. */
export interface ChosenFile {
  name: string;
  text: string;
}

/** What the Load tab's Locust actions say: the last import or export, or why it failed. */
export interface LocustNote {
  ok: boolean;
  text: string;
}

export interface LocustSlice {
  locustNote?: LocustNote;
  /** The locustfile of a load as the form sets it; undefined (and a note) when the core refused. */
  locustExportRequested(input: CallInput<'locust:export'>): Promise<CallOutput<'locust:export'> | undefined>;
  /** Locust's CSV files of one run (…_stats.csv, and …_stats_history.csv, …_failures.csv if chosen). */
  locustImportRequested(files: ChosenFile[]): Promise<void>;
  /** A chosen file could not be read (moved or deleted since it was chosen): nothing is imported. */
  locustFileUnreadable(name: string, reason: string): void;
}

/** Which of Locust's files each is, by the suffix `--csv PREFIX` gives it. */
export function locustFilesOf(files: ChosenFile[]): CallInput<'locust:import'> | string {
  const find = (suffix: string) => files.find((f) => f.name.endsWith(suffix));
  const stats = find('_stats.csv');
  if (!stats)
    return 'Choose the PREFIX_stats.csv that Locust wrote with --csv PREFIX (and PREFIX_stats_history.csv and PREFIX_failures.csv with it).';
  return {
    stats: stats.text,
    history: find('_stats_history.csv')?.text,
    failures: find('_failures.csv')?.text,
    name: stats.name.slice(0, 200),
  };
}

export const createLocustSlice: StateCreator<AppState, [], [], LocustSlice> = (set, get) => ({
  async locustExportRequested(input) {
    const r = await gateway.locust.export(input);
    if (!r.ok) {
      set({ locustNote: { ok: false, text: r.error.message } });
      return undefined;
    }
    set({ locustNote: { ok: true, text: `Exported ${r.value.fileName}: run it with GATEWAY_API_KEY set.` } });
    return r.value;
  },

  async locustImportRequested(files) {
    const input = locustFilesOf(files);
    if (typeof input === 'string') return set({ locustNote: { ok: false, text: input } });
    const r = await gateway.locust.import(input);
    if (!r.ok) return set({ locustNote: { ok: false, text: `Not imported: ${r.error.message}` } });
    set({ locustNote: { ok: true, text: `Imported ${input.name} as a Locust run.` } });
    await get().loadRunsRequested();
    await get().loadRunSelected(r.value.run.loadId);
  },

  locustFileUnreadable(name, reason) {
    set({
      locustNote: { ok: false, text: `Not imported: could not read ${name} (${reason}). Choose the files again.` },
    });
  },
});

import type { StateCreator } from 'zustand';
import type { CompareColumn } from '../../../shared/contract';
import { defaultBody } from '../../../shared/protocols/compose';
import type { AppState } from './index';

type Body = Record<string, unknown>;

export interface CompareSlice {
  /** The shared prompt, written once in the Messages shape and translated into each column's protocol. */
  compareBody: Body;
  /** The shared prompt's JSON editor text: kept as typed (`0.0`, blank lines), differs from the body's own form. */
  compareJsonText: string;
  compareJsonError?: string;
  compareColumns: CompareColumn[];
  /**
   * A stable id per column (same order as the columns). A column's run, its overrides field and its capability
   * check follow this id, so removing a column never hands its things to a neighbour.
   */
  compareColumnIds: string[];
  /** The run of each column in the last "Run all" (same order as the columns). */
  compareRunIds: (string | undefined)[];
  /** The body changed from a form field or a preset: the JSON editor shows it afresh. */
  compareBodyEdited(body: Body): void;
  /** The user typed in the JSON editor: the text stays as typed; the body follows whenever the text parses. */
  compareJsonTyped(text: string): void;
  /** The columns were replaced as a whole (a preset, a quick layout): new columns, no runs yet. */
  compareColumnsChanged(columns: CompareColumn[]): void;
  /** A column's settings changed: if they differ from its run's, that run no longer belongs to it and is dropped. */
  compareColumnEdited(index: number, patch: Partial<CompareColumn>): void;
  compareColumnAdded(column: CompareColumn): void;
  /** Removes the column with its own run; the others keep theirs. */
  compareColumnRemoved(index: number): void;
  /**
   * "Run all" started: the run of each column, by column id, with the settings it was started with. A column removed
   * meanwhile is skipped, and a column edited meanwhile gets no run (that run was for its former settings).
   */
  compareRunsStarted(runs: Record<string, StartedRun | undefined>): void;
}

export interface StartedRun {
  runId?: string;
  column: CompareColumn;
}

const pretty = (b: Body) => JSON.stringify(b, null, 2);

let lastColumnId = 0;
const newColumnId = () => `column-${++lastColumnId}`;

/** The ids of the current columns, minting any missing (a state set from outside may bring columns without ids). */
function idsOf(s: Pick<CompareSlice, 'compareColumns' | 'compareColumnIds'>): string[] {
  const ids = s.compareColumnIds.slice(0, s.compareColumns.length);
  while (ids.length < s.compareColumns.length) ids.push(newColumnId());
  return ids;
}

/** Whether two columns would send the same request for the same shared prompt. */
export function sameColumnSettings(a: CompareColumn, b: CompareColumn): boolean {
  return a.profileId === b.profileId && a.protocol === b.protocol && a.model === b.model && JSON.stringify(a.overrides ?? null) === JSON.stringify(b.overrides ?? null);
}

const initialBody: Body = { ...defaultBody('messages'), max_tokens: 512 };

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set) => ({
  compareBody: initialBody,
  compareJsonText: pretty(initialBody),
  compareColumns: [
    { profileId: 'demo', protocol: 'messages', model: 'claude-sim-sonnet' },
    { profileId: 'demo', protocol: 'chat', model: 'claude-sim-sonnet' },
  ],
  compareColumnIds: [newColumnId(), newColumnId()],
  compareRunIds: [],
  compareBodyEdited: (body) => set({ compareBody: body, compareJsonText: pretty(body), compareJsonError: undefined }),
  compareJsonTyped: (text) => {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) set({ compareJsonText: text, compareJsonError: 'must be a JSON object' });
      else set({ compareJsonText: text, compareBody: parsed as Body, compareJsonError: undefined });
    } catch (err) {
      set({ compareJsonText: text, compareJsonError: (err as Error).message });
    }
  },
  compareColumnsChanged: (columns) => set({ compareColumns: columns, compareColumnIds: columns.map(newColumnId), compareRunIds: [] }),
  compareColumnEdited: (index, patch) =>
    set((s) => {
      const before = s.compareColumns[index];
      if (!before) return {};
      const after = { ...before, ...patch };
      // Keeping the run would show its verdict, numbers and output under settings it was never run with.
      const runIds = sameColumnSettings(before, after) ? s.compareRunIds : s.compareRunIds.map((id, j) => (j === index ? undefined : id));
      return { compareColumns: s.compareColumns.map((c, j) => (j === index ? after : c)), compareColumnIds: idsOf(s), compareRunIds: runIds };
    }),
  compareColumnAdded: (column) => set((s) => ({ compareColumns: [...s.compareColumns, column], compareColumnIds: [...idsOf(s), newColumnId()] })),
  compareColumnRemoved: (index) =>
    set((s) => ({
      compareColumns: s.compareColumns.filter((_, j) => j !== index),
      compareColumnIds: idsOf(s).filter((_, j) => j !== index),
      compareRunIds: s.compareRunIds.filter((_, j) => j !== index),
    })),
  compareRunsStarted: (runs) =>
    set((s) => ({
      compareRunIds: idsOf(s).map((id, j) => {
        const r = runs[id];
        return r && sameColumnSettings(r.column, s.compareColumns[j]) ? r.runId : undefined;
      }),
    })),
});

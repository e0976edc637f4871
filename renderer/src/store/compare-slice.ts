import type { StateCreator } from 'zustand';
import type { CapabilityResultView, CompareColumn, GuardReport, ModelInfo } from '../../../shared/contract';
import { defaultBody } from '../../../shared/protocols/compose';
import { parseOverrides } from '../features/compare/column-body';
import { defaultColumns, protocolLayout } from '../features/compare/default-columns';
import type { AppState } from './index';

type Body = Record<string, unknown>;

export const MAX_COMPARE_COLUMNS = 6;

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
  /** Each column's capability check, by column id. */
  compareGuards: Record<string, GuardReport | undefined>;
  /** A column whose overrides field does not parse, by column id, with the parse error. */
  compareOverrideErrors: Record<string, string | undefined>;
  /** The columns are still the ones laid out for the active profile (no one chose others): they follow it. */
  compareFollowsProfile: boolean;
  /** The body changed from a form field or a preset: the JSON editor shows it afresh. */
  compareBodyEdited(body: Body): void;
  /** The user typed in the JSON editor: the text stays as typed; the body follows whenever the text parses. */
  compareJsonTyped(text: string): void;
  /** The columns were replaced as a whole (a preset, a quick layout): new columns, no runs yet. */
  compareColumnsChanged(columns: CompareColumn[]): void;
  /** A column's settings changed: if they differ from its run's, that run no longer belongs to it and is dropped. */
  compareColumnEdited(index: number, patch: Partial<CompareColumn>): void;
  /**
   * A column's overrides field was left: valid JSON (or nothing) applies, anything else is kept as an error
   * (and returned, for the field's own validity).
   */
  compareOverridesTyped(index: number, text: string): string | undefined;
  compareColumnAdded(column: CompareColumn): void;
  /** Removes the column with its own run; the others keep theirs. */
  compareColumnRemoved(index: number): void;
  /**
   * "Run all" started: the run of each column, by column id, with the settings it was started with. A column removed
   * meanwhile is skipped, and a column edited meanwhile gets no run (that run was for its former settings).
   */
  compareRunsStarted(runs: Record<string, StartedRun | undefined>): void;
  compareGuardsReceived(guards: Record<string, GuardReport | undefined>): void;
  /**
   * The active profile's models (or their failure) are known: columns nobody chose are laid out on a model
   * that profile lists.
   */
  compareProfileModelsSeen(seen: {
    profileId: string;
    models?: readonly ModelInfo[];
    results?: readonly CapabilityResultView[];
    error?: string;
  }): void;
  /** "Run all" (button or Ctrl/Cmd+Shift+Enter): every column's request is sent, unless something blocks it. */
  compareRunAllRequested(): Promise<void>;
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
  return (
    a.profileId === b.profileId &&
    a.protocol === b.protocol &&
    a.model === b.model &&
    JSON.stringify(a.overrides ?? null) === JSON.stringify(b.overrides ?? null)
  );
}

/** Why "Run all" cannot start now, or undefined when it can. */
export function runAllBlocked(
  s: Pick<CompareSlice, 'compareJsonError' | 'compareColumns' | 'compareColumnIds' | 'compareOverrideErrors'>,
): string | undefined {
  if (s.compareJsonError) return 'The shared prompt JSON does not parse.';
  if (s.compareColumns.length < 2) return 'Compare needs at least two columns.';
  const modelless = s.compareColumns.flatMap((c, i) => (c.model.trim() && c.profileId ? [] : [i + 1]));
  if (modelless.length) return `Run all is off until column ${modelless.join(', ')} has a model.`;
  const ids = idsOf(s);
  const bad = s.compareColumns.flatMap((_, i) => (s.compareOverrideErrors[ids[i]] ? [i + 1] : []));
  if (bad.length) return `Run all is off until the overrides of column ${bad.join(', ')} are valid JSON (or empty).`;
  return undefined;
}

const initialBody: Body = { ...defaultBody('messages'), max_tokens: 512 };
/** Before any profile is known: two protocols, no model; the active profile's models fill them in. */
const initialColumns: CompareColumn[] = [
  { profileId: '', protocol: 'messages', model: '' },
  { profileId: '', protocol: 'chat', model: '' },
];

const replaced = (columns: CompareColumn[]) => ({
  compareColumns: columns,
  compareColumnIds: columns.map(newColumnId),
  compareRunIds: [],
  compareOverrideErrors: {},
});

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set, get) => ({
  compareBody: initialBody,
  compareJsonText: pretty(initialBody),
  compareColumns: initialColumns,
  compareColumnIds: initialColumns.map(newColumnId),
  compareRunIds: [],
  compareGuards: {},
  compareOverrideErrors: {},
  compareFollowsProfile: true,
  compareBodyEdited: (body) => set({ compareBody: body, compareJsonText: pretty(body), compareJsonError: undefined }),
  compareJsonTyped: (text) => {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        set({ compareJsonText: text, compareJsonError: 'must be a JSON object' });
      } else set({ compareJsonText: text, compareBody: parsed as Body, compareJsonError: undefined });
    } catch (err) {
      set({ compareJsonText: text, compareJsonError: (err as Error).message });
    }
  },
  compareColumnsChanged: (columns) => set({ ...replaced(columns), compareFollowsProfile: false }),
  compareColumnEdited: (index, patch) =>
    set((s) => {
      const before = s.compareColumns[index];
      if (!before) return {};
      const after = { ...before, ...patch };
      // Keeping the run would show its verdict, numbers and output under settings it was never run with.
      const runIds = sameColumnSettings(before, after)
        ? s.compareRunIds
        : s.compareRunIds.map((id, j) => (j === index ? undefined : id));
      return {
        compareColumns: s.compareColumns.map((c, j) => (j === index ? after : c)),
        compareColumnIds: idsOf(s),
        compareRunIds: runIds,
        compareFollowsProfile: false,
      };
    }),
  compareOverridesTyped: (index, text) => {
    const id = idsOf(get())[index];
    if (id === undefined) return undefined;
    const parsed = parseOverrides(text);
    const error = parsed.ok ? undefined : parsed.error;
    set((s) => ({ compareOverrideErrors: { ...s.compareOverrideErrors, [id]: error } }));
    if (parsed.ok) get().compareColumnEdited(index, { overrides: parsed.value });
    return error;
  },
  compareColumnAdded: (column) =>
    set((s) =>
      s.compareColumns.length >= MAX_COMPARE_COLUMNS
        ? {}
        : {
            compareColumns: [...s.compareColumns, column],
            compareColumnIds: [...idsOf(s), newColumnId()],
            compareFollowsProfile: false,
          },
    ),
  compareColumnRemoved: (index) =>
    set((s) => ({
      compareColumns: s.compareColumns.filter((_, j) => j !== index),
      compareColumnIds: idsOf(s).filter((_, j) => j !== index),
      compareRunIds: s.compareRunIds.filter((_, j) => j !== index),
      compareFollowsProfile: false,
    })),
  compareRunsStarted: (runs) =>
    set((s) => ({
      compareRunIds: idsOf(s).map((id, j) => {
        const r = runs[id];
        return r && sameColumnSettings(r.column, s.compareColumns[j]) ? r.runId : undefined;
      }),
    })),
  compareGuardsReceived: (guards) => set({ compareGuards: guards }),
  compareProfileModelsSeen: (seen) => {
    const s = get();
    if (!s.compareFollowsProfile) {
      // Columns chosen before the list arrived keep their settings; only a column still without a model
      // on this profile gets one it lists.
      const fill = (c: CompareColumn) =>
        c.model || c.profileId !== seen.profileId
          ? c
          : { ...c, model: protocolLayout(seen, [c.protocol]).columns?.[0].model ?? '' };
      const filled = s.compareColumns.map(fill);
      if (filled.some((c, i) => c !== s.compareColumns[i] && c.model)) set({ compareColumns: filled });
      return;
    }
    const { columns } = defaultColumns(seen);
    // Nothing to lay out yet (no list, or it failed): the columns name the profile, and keep no model of
    // another profile's gateway (Run all waits for one).
    const keep = (c: CompareColumn) => ({
      ...c,
      profileId: seen.profileId,
      model: c.profileId === seen.profileId ? c.model : '',
    });
    const next = columns ?? s.compareColumns.map(keep);
    if (next.length === s.compareColumns.length && next.every((c, i) => sameColumnSettings(c, s.compareColumns[i])))
      return;
    set(replaced(next));
  },
  compareRunAllRequested: async () => {
    const s = get();
    if (runAllBlocked(s)) return;
    // Fetched here, not imported: the translation is a chunk the Compare tab has already loaded by now.
    const { columnBody } = await import('../features/compare/column-request');
    const ids = idsOf(s);
    const started = await Promise.all(
      s.compareColumns.map(async (c, i) => {
        const t = columnBody(s.compareBody, c);
        if (!t.ok) return [ids[i], undefined] as const;
        const warnings = s.compareGuards[ids[i]]?.warnings ?? [];
        const r = await s.runStartRequested({
          profileId: c.profileId,
          protocol: c.protocol,
          body: t.body,
          origin: 'compare',
          warnings,
        });
        return [ids[i], { runId: r.runId, column: c }] as const;
      }),
    );
    get().compareRunsStarted(Object.fromEntries(started));
  },
});

import { Fragment } from 'react';
import { PROTOCOL_INFO, VERDICTS } from '../../../../shared/protocols/types';
import type { RunSource } from '../../../../shared/contract';
import type { HistoryFilterState } from '../../store/library-slice';
import { WITH_WARNINGS } from '../stream-viewer/format';

/** The Source choices, in the order the combobox lists them: the user's own runs first, everything last. */
export const SOURCE_CHOICES: { value: RunSource | 'all'; label: string }[] = [
  { value: 'mine', label: 'Mine' },
  { value: 'compare', label: 'Compare' },
  { value: 'capabilities', label: 'Capabilities' },
  { value: 'agents', label: 'Agents' },
  { value: 'load', label: 'Load' },
  { value: 'collection', label: 'Collection runs' },
  { value: 'all', label: 'All' },
];

/** The verdict select's value: "complete" alone means a clean one, apart from "complete, with warnings". */
function verdictChoice(f: HistoryFilterState): string {
  return f.verdict === 'complete' && f.withWarnings ? WITH_WARNINGS : (f.verdict ?? '');
}

function verdictFilter(choice: string): Pick<HistoryFilterState, 'verdict' | 'withWarnings'> {
  if (choice === WITH_WARNINGS) return { verdict: 'complete', withWarnings: true };
  if (choice === 'complete') return { verdict: 'complete', withWarnings: false };
  return { verdict: (choice || undefined) as HistoryFilterState['verdict'], withWarnings: undefined };
}

export function HistoryFilters({
  filter,
  update,
}: {
  filter: HistoryFilterState;
  update: (patch: Partial<HistoryFilterState>) => void;
}) {
  return (
    <div className="filters">
      <input
        aria-label="Search history"
        placeholder="search prompts, output, model, name"
        title="Finds every word typed, in any order, anywhere in each run's request (prompts, system text, tool results), its output, its model, its profile or its name"
        value={filter.text ?? ''}
        onChange={(e) => update({ text: e.target.value || undefined })}
      />
      <select
        aria-label="Source"
        title="Whose runs: the ones you sent (composer, presets, replays), or those a screen sent for you"
        value={filter.source ?? 'all'}
        onChange={(e) => update({ source: e.target.value as HistoryFilterState['source'] })}
      >
        {SOURCE_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by protocol"
        value={filter.protocol ?? ''}
        onChange={(e) => update({ protocol: (e.target.value || undefined) as typeof filter.protocol })}
      >
        <option value="">all protocols</option>
        {(['messages', 'chat', 'responses'] as const).map((p) => (
          <option key={p} value={p}>
            {PROTOCOL_INFO[p].label}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by verdict"
        value={verdictChoice(filter)}
        onChange={(e) => update(verdictFilter(e.target.value))}
      >
        <option value="">all verdicts</option>
        {VERDICTS.map((v) => (
          <Fragment key={v}>
            <option>{v}</option>
            {v === 'complete' && <option>{WITH_WARNINGS}</option>}
          </Fragment>
        ))}
      </select>
      <input
        aria-label="Filter by model"
        placeholder="model (any part)"
        title="Any part of the model id, in any case"
        value={filter.model ?? ''}
        onChange={(e) => update({ model: e.target.value || undefined })}
      />
    </div>
  );
}

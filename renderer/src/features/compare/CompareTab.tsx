import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../store';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { ColumnEditor } from './ColumnEditor';
import { DiffPanel } from './DiffPanel';
import { SharedPrompt } from './SharedPrompt';
import { SummaryTable } from './SummaryTable';
import { useCompareGuards } from './use-compare-guards';
import { useCompareProfile, useRunAllShortcut } from './use-compare-profile';

/**
 * Compare: one prompt, 2–6 columns (profile × protocol × model), each streaming live, a summary table and a
 * word diff of two outputs. Every change goes through the store's compare actions.
 */
export function CompareTab() {
  const columnIds = useAppStore((s) => s.compareColumnIds);
  const count = useAppStore((s) => s.compareColumns.length);
  const runIds = useAppStore((s) => s.compareRunIds);
  const models = useAppStore((s) => s.models[s.profiles?.activeId ?? '']?.models);
  const results = useAppStore(useShallow((s) => runIds.map((id) => (id ? s.runs[id]?.result : undefined))));
  const [fullView, setFullView] = useState<string>();
  const [diffPair, setDiffPair] = useState<[number, number]>([0, 1]);
  const translated = useCompareGuards();
  useCompareProfile();
  useRunAllShortcut();
  // A column's id is its React key: an id-less state set from outside falls back to the index.
  const idOf = (i: number) => columnIds[i] ?? `index-${i}`;

  const onRemoved = (i: number) => {
    // The diff keeps showing the same columns: those after the removed one move down by one, and a side that
    // showed the removed column falls back to the first or second column (at least two always remain).
    const moved = (j: number, fallback: number) => (j > i ? j - 1 : j === i ? fallback : j);
    setDiffPair(([x, y]) => [moved(x, 0), moved(y, 1)]);
  };
  return (
    <div className="compare" role="tabpanel" aria-label="Compare">
      <SharedPrompt />
      {/* The columns share the width: six fit 1280 px (a narrower window scrolls rather than crush them). */}
      <div className="compare-columns" style={{ gridTemplateColumns: `repeat(${count}, minmax(180px, 1fr))` }}>
        {Array.from({ length: count }, (_, i) => (
          <ColumnEditor
            key={idOf(i)}
            index={i}
            columnId={idOf(i)}
            translated={translated[i]}
            onOpen={setFullView}
            onRemoved={onRemoved}
          />
        ))}
      </div>
      <datalist id="compare-models">
        {(models ?? []).map((m) => (
          <option key={m.id} value={m.id} />
        ))}
      </datalist>
      <section className="card compare-summary">
        <SummaryTable results={results.slice(0, count)} />
        <DiffPanel results={Array.from({ length: count }, (_, i) => results[i])} pair={diffPair} onPair={setDiffPair} />
      </section>
      {fullView && (
        <div className="full-view" role="dialog" aria-label="Full viewer">
          <button type="button" className="ghost" aria-label="Close full viewer" onClick={() => setFullView(undefined)}>
            ✕ Close
          </button>
          <StreamViewer runId={fullView} />
        </div>
      )}
    </div>
  );
}

import type { HistoryExportFormat } from '../../../../shared/contract';
import { useAppStore } from '../../store';

function download(name: string, text: string) {
  // A HAR file is JSON too: browsers and HAR viewers read it by its .har name.
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  /** The ticked runs, in the order they were ticked. */
  checked: string[];
  /** The open run: what Export takes when nothing is ticked. */
  open?: string;
  onDiff: (pair: [string, string]) => void;
  onClear: () => void;
  onError: (message?: string) => void;
}

/**
 * What can be done with the ticked runs (or, with none ticked, the open one): export them as HAR 1.2, which a
 * browser's network panel imports, or as JSON; diff two of them.
 */
export function HistorySelection({ checked, open, onDiff, onClear, onError }: Props) {
  const exportRequested = useAppStore((s) => s.historyExportRequested);
  const targets = checked.length ? checked : open ? [open] : [];
  const exportAs = async (format: HistoryExportFormat) => {
    const r = await exportRequested(targets, format);
    onError(r.ok ? undefined : `Could not export: ${r.error.message}`);
    if (r.ok) download(r.value.fileName, r.value.text);
  };
  const what = checked.length ? `${checked.length} ticked` : open ? 'the open run' : 'tick runs or open one';
  return (
    <div className="row wrap history-selection" role="toolbar" aria-label="Ticked runs">
      <span className="muted small">{what}</span>
      <button type="button" disabled={!targets.length} onClick={() => void exportAs('har')}>
        Export HAR
      </button>
      <button type="button" disabled={!targets.length} onClick={() => void exportAs('json')}>
        Export JSON
      </button>
      <button
        type="button"
        disabled={checked.length !== 2}
        title="Tick two runs to see their requests and outputs side by side"
        onClick={() => onDiff([checked[0], checked[1]])}
      >
        Diff
      </button>
      {checked.length > 0 && (
        <button type="button" className="ghost" onClick={onClear}>
          Untick all
        </button>
      )}
    </div>
  );
}

/**
 * The Load tab's way to a distributed engine (docs/load.md "Locust"): "Export as Locust" writes the load the
 * form sets up as a locustfile.py, and "Import Locust results" reads Locust's CSV output back as a saved load
 * run marked Locust, to open and compare beside the app's own.
 */
import { useRef } from 'react';
import { useAppStore } from '../../store';
import type { ChosenFile } from '../../store/locust-slice';
import { download } from './format';
import { loadInput, useRequest } from './LoadForm';

export function LocustActions() {
  const settings = useAppStore((s) => s.loadSettings);
  const activeId = useAppStore((s) => s.profiles?.activeId);
  const note = useAppStore((s) => s.locustNote);
  const exportRequested = useAppStore((s) => s.locustExportRequested);
  const importRequested = useAppStore((s) => s.locustImportRequested);
  const unreadable = useAppStore((s) => s.locustFileUnreadable);
  const request = useRequest(settings.source);
  const { input } = loadInput(settings, request, activeId);
  const picker = useRef<HTMLInputElement>(null);

  const exportFile = async () => {
    if (!input) return;
    const file = await exportRequested(input);
    if (file) download(file.fileName, file.text, 'text/x-python');
  };
  const importFiles = async (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (picker.current) picker.current.value = '';
    const files: ChosenFile[] = [];
    // A file is read only now: one moved or deleted since it was chosen fails here, and says so.
    for (const f of chosen) {
      try {
        files.push({ name: f.name, text: await f.text() });
      } catch (err) {
        // A DOMException (NotReadableError), which is not an Error everywhere.
        unreadable(f.name, err instanceof Error || err instanceof DOMException ? err.message : String(err));
        return;
      }
    }
    if (files.length) await importRequested(files);
  };

  return (
    <section className="card" aria-label="Locust">
      <div className="row">
        <button
          type="button"
          disabled={!input}
          title="This load as a locustfile.py: the same request, shape and figures, run by Locust"
          onClick={() => void exportFile()}
        >
          Export as Locust
        </button>
        <button type="button" onClick={() => picker.current?.click()}>
          Import Locust results
        </button>
        <input
          ref={picker}
          type="file"
          accept=".csv,text/csv"
          multiple
          hidden
          aria-label="Locust CSV files"
          onChange={(e) => void importFiles(e.currentTarget.files)}
        />
      </div>
      {note && (
        <p className={note.ok ? 'small muted' : 'field-error'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      )}
    </section>
  );
}

import { useRef, useState } from 'react';
import type { ForeignImportResult } from '../../../../shared/contract';
import { plural } from '../../../../shared/plural';
import { useAppStore } from '../../store';
import { NameForm } from './NameForm';
import { VariablesDialog } from './VariablesDialog';
import './collections.css';

function importedWords(r: ForeignImportResult): string {
  const vars = r.variables ? ` and ${plural(r.variables, 'variable')}` : '';
  return `Imported ${plural(r.imported, 'request')}${vars} from ${r.format} into “${r.folder.join(' / ')}”.`;
}

/**
 * Collections' own controls in the Presets toolbar: a new folder, the active profile's Variables, a Postman or
 * Bruno collection to import (with what was left out listed), and how many requests a run sends at once.
 */
export function CollectionsToolbar(props: { concurrency: number; onConcurrency(n: number): void }) {
  const saveFolder = useAppStore((s) => s.collectionFolderSaved);
  const importForeign = useAppStore((s) => s.foreignCollectionImported);
  const saveProfileVariables = useAppStore((s) => s.profileVariablesSaved);
  const profile = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.activeId));
  const profileVariables = useAppStore((s) => (profile ? s.collections.profileVariables[profile.id] : undefined));
  const [editing, setEditing] = useState<'folder' | 'variables'>();
  const [imported, setImported] = useState<ForeignImportResult>();
  const [error, setError] = useState<string>();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="collections-toolbar">
      <div className="row">
        <button type="button" onClick={() => setEditing('folder')}>
          New folder
        </button>
        <button type="button" disabled={!profile} onClick={() => setEditing('variables')}>
          Variables
        </button>
        <button type="button" onClick={() => file.current?.click()}>
          Import Postman or Bruno…
        </button>
        <input
          ref={file}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Import Postman or Bruno collection"
          onChange={(e) =>
            void (async () => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (!f) return;
              setImported(undefined);
              const r = await importForeign(await f.text());
              setError(r.ok ? undefined : r.error.message);
              if (r.ok) setImported(r.value);
            })()
          }
        />
        <label>
          At once{' '}
          <select value={props.concurrency} onChange={(e) => props.onConcurrency(Number(e.target.value))}>
            {[1, 2, 4, 8].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      {editing === 'folder' && (
        <NameForm
          label="Folder name"
          submit="Create folder"
          onSubmit={async (name) => {
            const r = await saveFolder({ path: [name] });
            return r.ok ? undefined : r.error.message;
          }}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing === 'variables' && profile && (
        <VariablesDialog
          scope={`profile ${profile.name}`}
          variables={profileVariables ?? {}}
          onSave={async (variables) => {
            const r = await saveProfileVariables(profile.id, variables);
            return r.ok ? undefined : r.error.message;
          }}
          onClose={() => setEditing(undefined)}
        />
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {imported && (
        <div className="note" role="status">
          {importedWords(imported)}
          {imported.leftOut.length > 0 && (
            <details>
              <summary>Left out: {plural(imported.leftOut.length, 'item')}</summary>
              <ul aria-label="Left out">
                {imported.leftOut.map((l, i) => (
                  <li key={i}>
                    <strong>{l.name}</strong>: {l.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}

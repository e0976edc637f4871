import { useEffect, useMemo, useRef, useState } from 'react';
import type { Preset } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { translateRequest, type Loss } from '../../../../shared/translate';
import { useAppStore } from '../../store';
import { LossList } from '../translate/LossList';
import { plural } from '../../../../shared/plural';

import { download } from '../../lib/download';
import { CollectionRunPanel } from '../collections/CollectionRunPanel';
import { CollectionsToolbar } from '../collections/CollectionsToolbar';
import { DRAG_TYPE, FolderSection } from '../collections/FolderSection';
import { RequestPlacement } from '../collections/RequestPlacement';
import { expectationWords } from '../collections/ExpectEditor';
import { allFolders, buildTree, type FolderNode } from '../collections/tree';

/**
 * Saved requests as collections: folders with variables, drag to reorder, Run collection; and per request load in
 * one click (or into another protocol through the translation), rename, duplicate, delete with undo, import and
 * export.
 */
export function PresetsTab() {
  const presets = useAppStore((s) => s.presets);
  const presetsRequested = useAppStore((s) => s.presetsRequested);
  const presetLoaded = useAppStore((s) => s.composerPresetLoaded);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const compareBodyEdited = useAppStore((s) => s.compareBodyEdited);
  const compareColumnsChanged = useAppStore((s) => s.compareColumnsChanged);
  const [query, setQuery] = useState('');
  const deleted = useAppStore((s) => s.deletedPresets);
  const presetRenameRequested = useAppStore((s) => s.presetRenameRequested);
  const presetDuplicateRequested = useAppStore((s) => s.presetDuplicateRequested);
  const presetDeleteRequested = useAppStore((s) => s.presetDeleteRequested);
  const presetRestoreRequested = useAppStore((s) => s.presetRestoreRequested);
  const presetsExportRequested = useAppStore((s) => s.presetsExportRequested);
  const presetsImportRequested = useAppStore((s) => s.presetsImportRequested);
  const undo = deleted.at(-1);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  const [pendingImport, setPendingImport] = useState<{ text: string; conflicts: string[] }>();
  const [translated, setTranslated] = useState<{
    preset: Preset;
    to: ProtocolId;
    body: Record<string, unknown>;
    losses: Loss[];
  }>();
  const [renaming, setRenaming] = useState<{ id: string; name: string; error?: string }>();
  const fileInput = useRef<HTMLInputElement>(null);
  const folders = useAppStore((s) => s.collections.folders);
  const collectionsRequested = useAppStore((s) => s.collectionsRequested);
  const moved = useAppStore((s) => s.presetMoved);
  const folderCarried = useAppStore((s) => s.presetFolderCarried);
  const [concurrency, setConcurrency] = useState(1);

  useEffect(() => {
    void presetsRequested();
    void collectionsRequested();
  }, [presetsRequested, collectionsRequested]);

  const shown = useMemo(() => {
    const q = query.toLowerCase();
    return presets.filter(
      (p) => !q || `${p.name} ${p.notes ?? ''} ${p.tags.join(' ')} ${p.model ?? ''}`.toLowerCase().includes(q),
    );
  }, [presets, query]);
  const tree = useMemo(() => buildTree(shown, folders), [shown, folders]);
  const folderPaths = useMemo(() => allFolders(tree), [tree]);
  const siblingsOf = (p: Preset): Preset[] => {
    let node: FolderNode | undefined = tree;
    for (const name of p.folder ?? []) node = node?.folders.find((f) => f.name === name);
    return node?.requests ?? [];
  };

  const load = (p: Preset, to: ProtocolId = p.protocol) => {
    if (p.compare) {
      compareBodyEdited(p.body);
      compareColumnsChanged(p.compare.columns);
      tabSelected('compare');
      return;
    }
    folderCarried(to, p.folder ?? []);
    if (to === p.protocol) {
      presetLoaded(p);
      tabSelected(p.protocol);
      return;
    }
    const t = translateRequest(p.protocol, to, { ...p.body, stream: p.stream });
    if (!t.ok) return setMessage(`Cannot translate ${p.name}: ${t.reason}`);
    setTranslated({ preset: p, to, body: t.body, losses: t.losses });
  };

  const importText = async (text: string, onConflict: 'ask' | 'keep-both' | 'replace') => {
    // A new import or an answer settles the question asked about the file before: its bar goes.
    setPendingImport(undefined);
    setMessage(undefined);
    const r = await presetsImportRequested({ text, onConflict });
    if (!r.ok) return setMessage(r.error.message);
    if (r.value.conflicts.length && onConflict === 'ask')
      return setPendingImport({ text, conflicts: r.value.conflicts });
    setMessage(
      `Imported ${plural(r.value.imported, 'preset')}${r.value.replaced ? `, replaced ${r.value.replaced}` : ''}.`,
    );
    void presetsRequested();
  };

  return (
    <div className="presets" role="tabpanel" aria-label="Presets">
      <CollectionsToolbar concurrency={concurrency} onConcurrency={setConcurrency} />
      <div className="cap-toolbar">
        <input
          aria-label="Search presets"
          placeholder="search presets"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button
          type="button"
          onClick={() =>
            void (async () => {
              const r = await presetsExportRequested();
              setError(r.ok ? undefined : `Could not export: ${r.error.message}`);
              if (r.ok) download('gateway-playground-presets.json', r.value.text);
            })()
          }
        >
          Export all
        </button>
        <button type="button" onClick={() => fileInput.current?.click()}>
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Import presets file"
          onChange={(e) =>
            void (async () => {
              const f = e.target.files?.[0];
              if (f) await importText(await f.text(), 'ask');
              e.target.value = '';
            })()
          }
        />
        {message && (
          <span className="note" role="status">
            {message}
          </span>
        )}
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
        {undo && (
          <span className="note">
            Deleted “{undo.name}”{deleted.length > 1 ? ` (and ${deleted.length - 1} before it)` : ''}.{' '}
            <button
              type="button"
              className="small"
              onClick={() =>
                void (async () => {
                  setError(undefined);
                  const r = await presetRestoreRequested(undo);
                  // Undo stays offered after a failure.
                  if (!r.ok) setError(`Could not restore “${undo.name}”: ${r.error.message}`);
                })()
              }
            >
              Undo
            </button>
          </span>
        )}
      </div>
      {pendingImport && (
        <div className="bring-along" role="alertdialog" aria-label="Import conflicts">
          <span>
            {pendingImport.conflicts.length === 1
              ? `A preset named ${pendingImport.conflicts[0]} already exists.`
              : `${pendingImport.conflicts.length} preset names already exist: ${pendingImport.conflicts.join(', ')}.`}
          </span>
          <button type="button" onClick={() => void importText(pendingImport.text, 'keep-both')}>
            Keep both
          </button>
          <button type="button" onClick={() => void importText(pendingImport.text, 'replace')}>
            Replace
          </button>
          <button type="button" className="ghost" onClick={() => setPendingImport(undefined)}>
            Cancel
          </button>
        </div>
      )}
      {translated && (
        <div className="bring-along open" role="region" aria-label="Translation">
          <h3>
            {translated.preset.name}: {PROTOCOL_INFO[translated.preset.protocol].label} →{' '}
            {PROTOCOL_INFO[translated.to].label}
          </h3>
          {translated.losses.length === 0 ? (
            <p className="muted">Nothing is lost.</p>
          ) : (
            <LossList losses={translated.losses} label="Loss list" />
          )}
          <div className="actions">
            <button
              type="button"
              className="primary"
              onClick={() => {
                presetLoaded(translated.preset, { protocol: translated.to, body: translated.body });
                tabSelected(translated.to);
                setTranslated(undefined);
              }}
            >
              Load translated
            </button>
            <button type="button" className="ghost" onClick={() => setTranslated(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <CollectionRunPanel />
      <ul className="preset-list" aria-label="Preset list">
        {tree.requests.map((p) => row(p))}
        {tree.folders.map((f) => (
          <FolderSection key={f.path.join('/')} node={f} concurrency={concurrency} renderRequest={row} />
        ))}
      </ul>
      {presets.length === 0 && <p className="muted empty">No presets yet: use “Save preset” in a protocol tab.</p>}
    </div>
  );

  function row(p: Preset) {
    return (
      <li
        key={p.id}
        className="preset"
        draggable
        onDragStart={(e) => {
          e.dataTransfer.setData(DRAG_TYPE, p.id);
          e.dataTransfer.effectAllowed = 'move';
        }}
        onDragOver={(e) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault()}
        onDrop={(e) => {
          const id = e.dataTransfer.getData(DRAG_TYPE);
          e.preventDefault();
          e.stopPropagation();
          if (id && id !== p.id) void moved({ id, folder: p.folder ?? [], before: p.id });
        }}
      >
        <div className="preset-main">
          {renaming?.id === p.id ? (
            <form
              onSubmit={(e) =>
                void (async () => {
                  e.preventDefault();
                  const r = await presetRenameRequested(p.id, renaming.name);
                  // The form stays open with what was typed, so a clashing name can be fixed rather than retyped.
                  if (!r.ok) return setRenaming({ ...renaming, error: r.error.fields?.name ?? r.error.message });
                  setRenaming(undefined);
                })()
              }
            >
              <input
                aria-label="New name"
                autoFocus
                value={renaming.name}
                aria-invalid={!!renaming.error}
                aria-describedby={renaming.error ? 'rename-error' : undefined}
                onChange={(e) => setRenaming({ id: p.id, name: e.target.value })}
              />
              {renaming.error && (
                <span id="rename-error" className="field-error" role="alert">
                  {renaming.error}
                </span>
              )}
            </form>
          ) : (
            <strong>{p.name}</strong>
          )}
          <span className="muted small">
            {p.compare
              ? `Comparison · ${plural(p.compare.columns.length, 'column')}`
              : `${PROTOCOL_INFO[p.protocol].label} · ${p.model ?? 'no model'}`}{' '}
            · {p.stream ? 'stream' : 'no stream'}
            {p.tags.length ? ` · ${p.tags.map((t) => `#${t}`).join(' ')}` : ''}
            {expectationWords(p.expect) ? ` · ${expectationWords(p.expect)}` : ''}
          </span>
          {p.notes && <span className="small">{p.notes}</span>}
        </div>
        <div className="row">
          <button type="button" className="primary" aria-label={`Load ${p.name}`} onClick={() => load(p)}>
            Load
          </button>
          <select
            aria-label={`Load ${p.name} into`}
            value=""
            onChange={(e) => e.target.value && load(p, e.target.value as ProtocolId)}
          >
            <option value="">into…</option>
            {PROTOCOL_IDS.filter((x) => x !== p.protocol).map((x) => (
              <option key={x} value={x}>
                {PROTOCOL_INFO[x].label} (translated)
              </option>
            ))}
          </select>
          <button type="button" className="ghost" onClick={() => setRenaming({ id: p.id, name: p.name })}>
            Rename
          </button>
          <button type="button" className="ghost" onClick={() => void presetDuplicateRequested(p.id)}>
            Duplicate
          </button>
          <button
            type="button"
            className="ghost"
            onClick={() =>
              void (async () => {
                const r = await presetsExportRequested([p.id]);
                setError(r.ok ? undefined : `Could not export “${p.name}”: ${r.error.message}`);
                if (r.ok) download(`${p.name.replace(/[^\w.-]+/g, '_')}.preset.json`, r.value.text);
              })()
            }
          >
            Export
          </button>
          <button
            type="button"
            className="ghost danger"
            aria-label={`Delete ${p.name}`}
            onClick={() =>
              void (async () => {
                setError(undefined);
                const r = await presetDeleteRequested(p.id);
                if (!r.ok) setError(`Could not delete “${p.name}”: ${r.error.message}`);
              })()
            }
          >
            Delete
          </button>
          <RequestPlacement preset={p} siblings={siblingsOf(p)} folders={folderPaths} />
        </div>
      </li>
    );
  }
}

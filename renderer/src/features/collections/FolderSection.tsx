import { useState, type ReactNode } from 'react';
import { plural } from '../../../../shared/plural';
import { useAppStore } from '../../store';
import { NameForm } from './NameForm';
import type { FolderNode } from './tree';
import { VariablesDialog } from './VariablesDialog';

/** The id a dragged request carries. */
export const DRAG_TYPE = 'application/x-gateway-preset';

/**
 * One folder of Collections: its requests and folders, and what a folder does — Run collection, its Variables,
 * a folder inside it, rename, delete (only when empty). A request dropped on its header goes to its end.
 */
export function FolderSection(props: {
  node: FolderNode;
  concurrency: number;
  renderRequest(p: FolderNode['requests'][number]): ReactNode;
}) {
  const { node } = props;
  const [open, setOpen] = useState(true);
  const [editing, setEditing] = useState<'rename' | 'subfolder' | 'variables'>();
  const [error, setError] = useState<string>();
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const saveFolder = useAppStore((s) => s.collectionFolderSaved);
  const renameFolder = useAppStore((s) => s.collectionFolderRenamed);
  const deleteFolder = useAppStore((s) => s.collectionFolderDeleted);
  const moved = useAppStore((s) => s.presetMoved);
  const runRequested = useAppStore((s) => s.collectionRunRequested);
  const label = node.path.join(' / ');
  const failed = (r: { ok: boolean; error?: { message: string } }) => (r.ok ? undefined : r.error?.message);

  const run = async () => {
    setError(undefined);
    if (!profileId) return setError('No profile.');
    const r = await runRequested({ profileId, folder: node.path, concurrency: props.concurrency });
    if (!r.ok) setError(r.error.message);
  };

  return (
    <li
      className="folder"
      onDragOver={(e) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault()}
      onDrop={(e) => {
        const id = e.dataTransfer.getData(DRAG_TYPE);
        if (!id) return;
        e.preventDefault();
        e.stopPropagation();
        void moved({ id, folder: node.path });
      }}
    >
      <div className="folder-head row">
        <button type="button" className="ghost folder-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {node.name}
        </button>
        <span className="muted small">
          {plural(node.total, 'request')}
          {Object.keys(node.variables).length ? ` · ${plural(Object.keys(node.variables).length, 'variable')}` : ''}
        </span>
        <button
          type="button"
          className="primary small"
          aria-label={`Run collection ${label}`}
          disabled={node.total === 0}
          onClick={() => void run()}
        >
          Run collection
        </button>
        <button
          type="button"
          className="ghost small"
          aria-label={`Variables of ${label}`}
          onClick={() => setEditing('variables')}
        >
          Variables
        </button>
        <button
          type="button"
          className="ghost small"
          aria-label={`New folder in ${label}`}
          onClick={() => setEditing('subfolder')}
        >
          New folder
        </button>
        <button
          type="button"
          className="ghost small"
          aria-label={`Rename folder ${label}`}
          onClick={() => setEditing('rename')}
        >
          Rename
        </button>
        <button
          type="button"
          className="ghost small danger"
          aria-label={`Delete folder ${label}`}
          onClick={() => void deleteFolder(node.path).then((r) => setError(failed(r)))}
        >
          Delete
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {editing === 'rename' && (
        <NameForm
          label="Folder name"
          initial={node.name}
          submit="Rename"
          onSubmit={async (name) => failed(await renameFolder(node.path, name))}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing === 'subfolder' && (
        <NameForm
          label="Folder name"
          submit="Create folder"
          onSubmit={async (name) => failed(await saveFolder({ path: [...node.path, name] }))}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing === 'variables' && (
        <VariablesDialog
          scope={`folder ${label}`}
          variables={node.variables}
          onSave={async (variables) => failed(await saveFolder({ path: node.path, variables }))}
          onClose={() => setEditing(undefined)}
        />
      )}
      {open && (
        <ul className="preset-list" aria-label={`Folder ${label}`}>
          {node.requests.map((p) => props.renderRequest(p))}
          {node.folders.map((f) => (
            <FolderSection
              key={f.path.join('/')}
              node={f}
              concurrency={props.concurrency}
              renderRequest={props.renderRequest}
            />
          ))}
          {node.total === 0 && <li className="muted small">Empty: drag a request here, or use its “Move to”.</li>}
        </ul>
      )}
    </li>
  );
}

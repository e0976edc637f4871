import { useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { useConnectionTest } from './ConnectionTest';
import { HeaderRows } from './HeaderRows';
import { BaseUrlField, KeyFields } from './ProfileFields';
import { fromProfile, isDirty, isSecretRow, newHostFor, toInput, type Draft } from './profile-draft';

/** What a save to another host forgets, in words: a key typed now is for the new host and is kept. */
function droppedWords(draft: Draft, saved: ProfileView | undefined): string | undefined {
  const key = saved?.key.hasKey && !draft.key;
  const headers = draft.headers.some((h) => h.status?.hasValue && h.value === '' && isSecretRow(h));
  if (key && headers) return 'The stored key and secret header values were';
  if (key) return 'The stored key was';
  return headers ? 'The stored secret header values were' : undefined;
}

export function ConnectionsDialog({ onClose }: { onClose: () => void }) {
  const profiles = useAppStore((s) => s.profiles);
  const profileSaved = useAppStore((s) => s.profileSaved);
  const profileDeleted = useAppStore((s) => s.profileDeleted);
  const [selected, setSelected] = useState<string | undefined>(profiles?.profiles.find((p) => !p.builtin)?.id);
  const editing = profiles?.profiles.find((p) => p.id === selected);
  const active = profiles?.profiles.find((p) => p.id === profiles.activeId);
  const [draft, setDraft] = useState<Draft>(() => fromProfile(editing));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  /** Bumped by every edit: what the form last said (Saved., a test result) was about the form before it. */
  const [version, setVersion] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  // Another profile picked: its form starts from what it holds (React's pattern for state that follows a prop).
  const [draftOf, setDraftOf] = useState(selected);
  if (draftOf !== selected) {
    setDraftOf(selected);
    setDraft(fromProfile(editing));
    setErrors({});
    setConfirmingDelete(false);
    setVersion((v) => v + 1);
  }

  const readOnly = !!editing?.builtin;
  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setMessage(undefined);
    setVersion((v) => v + 1);
  };
  const pick = (id: string | undefined) => {
    setMessage(undefined);
    setSelected(id);
  };
  const newHost = newHostFor(draft, editing);
  const dirty = !readOnly && isDirty(draft, editing);
  const test = useConnectionTest(
    () =>
      editing && !dirty
        ? { id: editing.id }
        : { draft: { ...toInput(draft, editing), name: draft.name.trim() || 'Unsaved profile' } },
    `${selected ?? 'new'}:${version}`,
    dirty ? 'Tests the form as typed. The stored key is sent only to the address it was saved for.' : undefined,
  );

  const save = async (use: boolean) => {
    setMessage(undefined);
    const dropped = newHost && !draft.keepForNewOrigin ? droppedWords(draft, editing) : undefined;
    const err = await profileSaved({ ...toInput(draft, editing), ...(use ? { use: true } : {}) });
    if (err) {
      setErrors(err.fields ?? { _: err.message });
      // A test result beside an error would read as the answer for what was just refused.
      setVersion((v) => v + 1);
      return;
    }
    // The key and secret header values have been handed to the core: nothing in the renderer keeps them.
    const state = useAppStore.getState().profiles;
    const name = draft.name.trim().toLowerCase();
    const saved = state?.profiles.find((p) => (draft.id ? p.id === draft.id : p.name.toLowerCase() === name));
    setDraft((d) => ({ ...fromProfile(saved), keyStorage: d.keyStorage }));
    setErrors({});
    setSelected(saved?.id);
    setDraftOf(saved?.id);
    setVersion((v) => v + 1);
    const inUse = state?.profiles.find((p) => p.id === state.activeId);
    const which =
      saved && inUse?.id === saved.id
        ? ` “${saved.name}” is the profile in use.`
        : ` The profile in use is still “${inUse?.name ?? ''}”.`;
    setMessage(`Saved.${which}${dropped && newHost ? ` ${dropped} not kept for ${newHost.host}.` : ''}`);
  };

  const remove = async () => {
    setConfirmingDelete(false);
    if (!editing || editing.builtin) return;
    const err = await profileDeleted(editing.id);
    if (err) return setErrors({ _: err.message });
    setMessage(`Deleted “${editing.name}”.`);
    setSelected(undefined);
  };

  return (
    <dialog ref={dialog} className="connections" aria-label="Connections" onClose={onClose} onCancel={onClose}>
      <div className="dialog-head">
        <h2>Connections</h2>
        <button type="button" className="ghost" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="connections-body">
        <ul className="profile-list" aria-label="Profiles">
          {profiles?.profiles.map((p) => (
            <li key={p.id}>
              <button type="button" className={p.id === selected ? 'selected' : ''} onClick={() => pick(p.id)}>
                <span>{p.name}</span>
                <small className="muted">{p.builtin ? 'built in' : p.key.hasKey ? p.key.hint : 'no key'}</small>
              </button>
            </li>
          ))}
          <li>
            <button type="button" className={selected === undefined ? 'selected' : ''} onClick={() => pick(undefined)}>
              + New profile
            </button>
          </li>
        </ul>
        <form
          className="profile-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save(false);
          }}
        >
          <p className="muted in-use">
            In use: <strong>{active?.name ?? '…'}</strong>
          </p>
          {readOnly && <p className="note">{editing?.name} is built in: it cannot be edited or deleted.</p>}
          <label>
            <span className="label">Name</span>
            <input
              aria-label="Name"
              value={draft.name}
              disabled={readOnly}
              onChange={(e) => edit({ name: e.target.value })}
            />
            {errors.name && <span className="field-error">{errors.name}</span>}
          </label>
          <BaseUrlField
            draft={draft}
            edit={edit}
            readOnly={readOnly}
            saved={editing}
            savedError={errors.baseUrl}
            asksOutsidePage={profiles?.asksOutsidePage === true}
          />
          <KeyFields
            draft={draft}
            edit={edit}
            readOnly={readOnly}
            saved={editing}
            keyStorages={profiles?.keyStorages ?? []}
          />
          <HeaderRows
            headers={draft.headers}
            disabled={readOnly}
            onChange={(headers) => edit({ headers })}
            errors={Object.entries(errors)
              .filter(
                ([k]) =>
                  k.startsWith('extraHeaders') || k.startsWith('keepSecretHeaders') || k.startsWith('secretHeaders'),
              )
              .map(([, v]) => v)}
          />
          {errors._ && <p className="field-error">{errors._}</p>}
          {message && (
            <p className="note" role="status">
              {message}
            </p>
          )}
          {test.result}
          {confirmingDelete && editing && (
            <div className="delete-confirm" role="alertdialog" aria-label="Delete profile">
              <p>
                Delete “{editing.name}”? Its saved key and secret header values are removed with it, and this cannot be
                undone.
              </p>
              <button type="button" className="danger" onClick={() => void remove()}>
                Delete “{editing.name}”
              </button>{' '}
              <button type="button" onClick={() => setConfirmingDelete(false)}>
                Cancel
              </button>
            </div>
          )}
          <div className="actions">
            {!readOnly && (
              <button type="submit" className="primary">
                {draft.id ? 'Save profile' : 'Add profile'}
              </button>
            )}
            {!readOnly && draft.id !== profiles?.activeId && (
              <button type="button" onClick={() => void save(true)}>
                {draft.id ? 'Save and use' : 'Add and use'}
              </button>
            )}
            {test.button}
            {!readOnly && draft.id && (
              <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
                Delete
              </button>
            )}
          </div>
        </form>
      </div>
    </dialog>
  );
}

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
  const [draft, setDraft] = useState<Draft>(() => fromProfile(editing));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
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
  }

  const readOnly = !!editing?.builtin;
  const edit = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const newHost = newHostFor(draft, editing);
  const test = useConnectionTest(editing?.id, !readOnly && isDirty(draft, editing));

  const save = async () => {
    const dropped = newHost && !draft.keepForNewOrigin ? droppedWords(draft, editing) : undefined;
    const err = await profileSaved(toInput(draft, editing));
    if (err) {
      setErrors(err.fields ?? { _: err.message });
      return;
    }
    // The key and secret header values have been handed to the core: nothing in the renderer keeps them.
    const state = useAppStore.getState().profiles;
    const saved = state?.profiles.find((p) => p.id === state.activeId);
    setDraft((d) => ({ ...fromProfile(saved), keyStorage: d.keyStorage }));
    setErrors({});
    setSelected(state?.activeId);
    setMessage(dropped && newHost ? `Saved. ${dropped} not kept for ${newHost.host}.` : 'Saved.');
  };

  const remove = async () => {
    if (!editing || editing.builtin) return;
    const err = await profileDeleted(editing.id);
    if (err) setErrors({ _: err.message });
    else setSelected(undefined);
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
              <button type="button" className={p.id === selected ? 'selected' : ''} onClick={() => setSelected(p.id)}>
                <span>{p.name}</span>
                <small className="muted">{p.builtin ? 'built in' : p.key.hasKey ? p.key.hint : 'no key'}</small>
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className={selected === undefined ? 'selected' : ''}
              onClick={() => setSelected(undefined)}
            >
              + New profile
            </button>
          </li>
        </ul>
        <form
          className="profile-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
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
          <BaseUrlField draft={draft} edit={edit} readOnly={readOnly} saved={editing} savedError={errors.baseUrl} />
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
          {(!readOnly || test.button) && (
            <div className="actions">
              {!readOnly && (
                <button type="submit" className="primary">
                  {draft.id ? 'Save profile' : 'Add profile'}
                </button>
              )}
              {test.button}
              {!readOnly && draft.id && (
                <button type="button" className="danger" onClick={() => void remove()}>
                  Delete
                </button>
              )}
            </div>
          )}
        </form>
      </div>
    </dialog>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { AUTH_SCHEMES, type AuthScheme } from '../../../../shared/contract';
import { endpointUrls } from '../../../../shared/url';
import { useAppStore } from '../../store';
import { useConnectionTest } from './ConnectionTest';
import { HeaderRows, STORAGE_WORDS } from './HeaderRows';
import { fromProfile, isDirty, newHostFor, toInput, type Draft } from './profile-draft';

const AUTH_LABELS: Record<AuthScheme, string> = {
  native: "Each endpoint's native header (x-api-key on /v1/messages*, Bearer elsewhere)",
  'x-api-key': 'x-api-key everywhere',
  bearer: 'Authorization: Bearer everywhere',
  both: 'Both headers everywhere',
};

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
  useEffect(() => {
    setDraft(fromProfile(editing));
    setErrors({});
  }, [selected]); // eslint-disable-line react-hooks/exhaustive-deps

  const preview = useMemo(() => (draft.baseUrl ? endpointUrls(draft.baseUrl) : undefined), [draft.baseUrl]);
  const readOnly = !!editing?.builtin;
  // One error under Base URL: the live one while the URL typed cannot be read, else what the last save said.
  const urlError = preview && !preview.ok ? preview.error : errors.baseUrl;
  const newHost = newHostFor(draft, editing);
  const test = useConnectionTest(editing?.id, !readOnly && isDirty(draft, editing));

  const save = async () => {
    const droppingSecrets = newHost !== undefined && !draft.keepForNewOrigin && !draft.key;
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
    setMessage(droppingSecrets ? `Saved. The stored key and secret header values were not kept for ${newHost.host}.` : 'Saved.');
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
            <button type="button" className={selected === undefined ? 'selected' : ''} onClick={() => setSelected(undefined)}>
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
            <input aria-label="Name" value={draft.name} disabled={readOnly} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
            {errors.name && <span className="field-error">{errors.name}</span>}
          </label>
          <label>
            <span className="label">Base URL</span>
            <input aria-label="Base URL" placeholder="https://gateway.example.com" value={draft.baseUrl} disabled={readOnly} onChange={(e) => setDraft({ ...draft, baseUrl: e.target.value })} />
            {urlError && <span className="field-error">{urlError}</span>}
          </label>
          {preview?.ok && (
            <div className="url-preview" aria-label="Endpoint URLs">
              {preview.note && <p className="note">{preview.note}</p>}
              <table>
                <tbody>
                  {preview.urls.map((u) => (
                    <tr key={u.path}>
                      <td className="method">{u.method}</td>
                      <td className="mono">{u.url}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {newHost && (
            <div className="host-change" role="group" aria-label="Host change">
              <label className="inline">
                <input type="checkbox" checked={draft.keepForNewOrigin} onChange={(e) => setDraft({ ...draft, keepForNewOrigin: e.target.checked })} /> Keep the key for{' '}
                {newHost.host}?
              </label>
              <span className="muted">
                {draft.keepForNewOrigin
                  ? `The stored key and secret header values will be sent to ${newHost.host}.`
                  : `Unticked, saving forgets the stored key and secret header values, so ${newHost.host} never receives them.`}
              </span>
            </div>
          )}
          <label>
            <span className="label">API key</span>
            <input
              aria-label="API key"
              type="password"
              autoComplete="off"
              placeholder={editing?.key.hasKey ? `stored (${editing.key.hint}) — type to replace` : 'sk-…'}
              value={draft.key}
              disabled={readOnly}
              onChange={(e) => setDraft({ ...draft, key: e.target.value })}
            />
            {editing?.key.hasKey && !readOnly && (
              <span className="muted">
                Stored: {editing.key.hint} ({STORAGE_WORDS[editing.key.storage]}){' '}
                <label className="inline">
                  <input type="checkbox" checked={draft.clearKey} onChange={(e) => setDraft({ ...draft, clearKey: e.target.checked })} /> forget it
                </label>
              </span>
            )}
            {!readOnly && (
              <span className="muted hint">
                Answers are cleaned of the key and secret values before they reach this window. A secret under 8 characters is only matched exactly, so
                prefer longer ones.
              </span>
            )}
          </label>
          <label>
            <span className="label">Keep the key</span>
            <select aria-label="Keep the key" value={draft.keyStorage} disabled={readOnly} onChange={(e) => setDraft({ ...draft, keyStorage: e.target.value as Draft['keyStorage'] })}>
              {profiles?.keyStorages.includes('keychain') && <option value="persist">in the OS keychain</option>}
              {profiles?.keyStorages.includes('file') && <option value="persist">in a 0600 file in the data folder</option>}
              {!profiles?.keyStorages.some((k) => k === 'keychain' || k === 'file') && <option value="persist">for this session (no keychain here)</option>}
              <option value="session">for this session only</option>
            </select>
          </label>
          <label>
            <span className="label">Auth scheme</span>
            <select aria-label="Auth scheme" value={draft.authScheme} disabled={readOnly} onChange={(e) => setDraft({ ...draft, authScheme: e.target.value as AuthScheme })}>
              {AUTH_SCHEMES.map((a) => (
                <option key={a} value={a}>
                  {AUTH_LABELS[a]}
                </option>
              ))}
            </select>
          </label>
          <HeaderRows
            headers={draft.headers}
            disabled={readOnly}
            onChange={(headers) => setDraft({ ...draft, headers })}
            errors={Object.entries(errors)
              .filter(([k]) => k.startsWith('extraHeaders') || k.startsWith('keepSecretHeaders') || k.startsWith('secretHeaders'))
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

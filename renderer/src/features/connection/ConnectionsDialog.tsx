import { useEffect, useMemo, useRef, useState } from 'react';
import { AUTH_SCHEMES, type AuthScheme, type KeyStorage, type ProfileView, type SecretHeaderStatus } from '../../../../shared/contract';
import { SECRET_HEADER } from '../../../../shared/request-headers';
import { endpointUrls } from '../../../../shared/url';
import { useAppStore } from '../../store';

interface Draft {
  id?: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  key: string;
  keyStorage: 'persist' | 'session';
  clearKey: boolean;
  headers: HeaderRow[];
}

interface HeaderRow {
  name: string;
  /** For a secret header with a stored value, a new value; '' keeps the stored one. */
  value: string;
  /** The name a secret header's value is stored under in the core, which never sends the value here. */
  stored?: string;
  status?: SecretHeaderStatus;
}

const STORAGE_WORDS: Record<KeyStorage | 'profiles-file', string> = {
  keychain: 'OS keychain',
  file: '0600 file',
  session: 'this session only',
  env: 'env',
  none: 'none',
  'profiles-file': 'plain text in profiles.json',
};

const AUTH_LABELS: Record<AuthScheme, string> = {
  native: "Each endpoint's native header (x-api-key on /v1/messages*, Bearer elsewhere)",
  'x-api-key': 'x-api-key everywhere',
  bearer: 'Authorization: Bearer everywhere',
  both: 'Both headers everywhere',
};

const fromProfile = (p?: ProfileView): Draft => ({
  id: p?.id,
  name: p?.name ?? '',
  baseUrl: p?.baseUrl ?? '',
  authScheme: p?.authScheme ?? 'native',
  key: '',
  keyStorage: 'persist',
  clearKey: false,
  headers: Object.entries(p?.extraHeaders ?? {}).map(([name, value]) => {
    const status = p?.secretHeaders[name];
    return status ? { name, value: '', stored: name, status } : { name, value };
  }),
});

const valuePlaceholder = (h: HeaderRow) => (h.status?.hasValue ? `stored (${h.status.hint}) — type to replace` : 'value');

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

  const save = async () => {
    const extraHeaders: Record<string, string> = {};
    const keepSecretHeaders: Record<string, string> = {};
    for (const h of draft.headers) {
      const name = h.name.trim();
      if (!name) continue;
      extraHeaders[name] = h.value;
      if (h.stored !== undefined && h.value === '') keepSecretHeaders[name] = h.stored;
    }
    const err = await profileSaved({
      id: draft.id,
      name: draft.name,
      baseUrl: draft.baseUrl,
      authScheme: draft.authScheme,
      extraHeaders,
      keepSecretHeaders,
      key: draft.key || undefined,
      clearKey: draft.clearKey || undefined,
      keyStorage: draft.keyStorage,
    });
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
    setMessage('Saved.');
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
            {errors.baseUrl && <span className="field-error">{errors.baseUrl}</span>}
          </label>
          {preview && (
            <div className="url-preview" aria-label="Endpoint URLs">
              {preview.ok ? (
                <>
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
                </>
              ) : (
                <p className="field-error">{preview.error}</p>
              )}
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
          <fieldset disabled={readOnly}>
            <legend>Extra headers</legend>
            <p className="muted">A credential header&apos;s value (a name with auth, token, api-key, secret…) is kept where the key is and not shown again.</p>
            {draft.headers.map((h, i) => (
              <div key={i}>
                <div className="header-row">
                  <input aria-label={`Header ${i + 1} name`} placeholder="name" value={h.name} onChange={(e) => setDraft({ ...draft, headers: draft.headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />
                  <input
                    aria-label={`Header ${i + 1} value`}
                    type={h.stored !== undefined || SECRET_HEADER.test(h.name.trim()) ? 'password' : 'text'}
                    autoComplete="off"
                    placeholder={valuePlaceholder(h)}
                    value={h.value}
                    onChange={(e) => setDraft({ ...draft, headers: draft.headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })}
                  />
                  <button type="button" className="ghost" aria-label={`Remove header ${i + 1}`} onClick={() => setDraft({ ...draft, headers: draft.headers.filter((_, j) => j !== i) })}>
                    ✕
                  </button>
                </div>
                {h.status?.hasValue && h.value === '' && (
                  <span className="muted">
                    Stored: {h.status.hint} ({STORAGE_WORDS[h.status.storage]})
                  </span>
                )}
              </div>
            ))}
            <button type="button" className="ghost" onClick={() => setDraft({ ...draft, headers: [...draft.headers, { name: '', value: '' }] })}>
              + Add header
            </button>
            {Object.entries(errors)
              .filter(([k]) => k.startsWith('extraHeaders') || k.startsWith('keepSecretHeaders'))
              .map(([k, v]) => (
                <span key={k} className="field-error">
                  {v}
                </span>
              ))}
          </fieldset>
          {errors._ && <p className="field-error">{errors._}</p>}
          {message && <p className="note" role="status">{message}</p>}
          {!readOnly && (
            <div className="actions">
              <button type="submit" className="primary">
                {draft.id ? 'Save profile' : 'Add profile'}
              </button>
              {draft.id && (
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

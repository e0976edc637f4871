import { useMemo } from 'react';
import { AUTH_SCHEMES, type AuthScheme, type KeyStorage, type ProfileView } from '../../../../shared/contract';
import { endpointInBase, endpointUrls } from '../../../../shared/url';
import { STORAGE_WORDS } from './HeaderRows';
import { newHostFor, type Draft } from './profile-draft';

const AUTH_LABELS: Record<AuthScheme, string> = {
  native: "Each endpoint's native header (x-api-key on /v1/messages*, Bearer elsewhere)",
  'x-api-key': 'x-api-key everywhere',
  bearer: 'Authorization: Bearer everywhere',
  both: 'Both headers everywhere',
};

interface FieldProps {
  draft: Draft;
  edit: (patch: Partial<Draft>) => void;
  readOnly: boolean;
  /** The profile as saved, when editing one. */
  saved: ProfileView | undefined;
}

/**
 * Base URL, the exact URL of each endpoint (with a one-click fix when the base already names one), and, when a
 * saved profile's URL now names another host or port, what happens to its stored key and secret header values
 * (docs/security.md §3).
 */
export function BaseUrlField({
  draft,
  edit,
  readOnly,
  saved,
  savedError,
  asksOutsidePage,
}: FieldProps & { savedError?: string; asksOutsidePage: boolean }) {
  const preview = useMemo(() => (draft.baseUrl ? endpointUrls(draft.baseUrl) : undefined), [draft.baseUrl]);
  const doubled = useMemo(() => endpointInBase(draft.baseUrl), [draft.baseUrl]);
  // One error under Base URL: the live one while the URL typed cannot be read, else what the last save said.
  const urlError = preview && !preview.ok ? preview.error : doubled ? undefined : savedError;
  return (
    <>
      <label>
        <span className="label">Base URL</span>
        <input
          aria-label="Base URL"
          placeholder="https://gateway.example.com"
          value={draft.baseUrl}
          disabled={readOnly}
          onChange={(e) => edit({ baseUrl: e.target.value })}
        />
        {urlError && <span className="field-error">{urlError}</span>}
      </label>
      {doubled && !readOnly && (
        <div className="did-you-mean" role="alert">
          <span>
            This base URL already ends in <code>{doubled.found}</code>, which every endpoint adds again. Did you mean{' '}
            <code>{doubled.suggestion}</code>?
          </span>{' '}
          <button type="button" className="small" onClick={() => edit({ baseUrl: doubled.suggestion })}>
            Use {doubled.suggestion}
          </button>
        </div>
      )}
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
      <HostChange draft={draft} edit={edit} saved={saved} asksOutsidePage={asksOutsidePage} />
    </>
  );
}

/**
 * Said before Save, never after: a stored key does not follow a profile to another host or port unless the
 * user keeps it, and only a host that can ask outside the page (the desktop app) can let it.
 */
function HostChange({
  draft,
  edit,
  saved,
  asksOutsidePage,
}: Omit<FieldProps, 'readOnly'> & { asksOutsidePage: boolean }) {
  const newHost = newHostFor(draft, saved);
  if (!newHost) return null;
  const stays = `The stored key and secret header values will not follow to the new address ${newHost.host}`;
  return (
    <div className="host-change" role="group" aria-label="Host change">
      {asksOutsidePage && (
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.keepForNewOrigin}
            onChange={(e) => edit({ keepForNewOrigin: e.target.checked })}
          />{' '}
          Keep the key for {newHost.host}?
        </label>
      )}
      <span className="muted">
        {asksOutsidePage && draft.keepForNewOrigin
          ? `On Save, the app asks you in its own dialog before the stored key and secret header values go to ${newHost.host}.`
          : asksOutsidePage
            ? `${stays}: saving forgets them, so ${newHost.host} never receives them.`
            : `${stays}: saving forgets them, so ${newHost.host} never receives them. This browser window cannot ` +
              'confirm a key moving to another host, so type the key again above for the new address.'}
      </span>
    </div>
  );
}

/** The key, where to keep it (with what short secrets mean for answers), and the auth scheme that sends it. */
export function KeyFields({ draft, edit, readOnly, saved, keyStorages }: FieldProps & { keyStorages: KeyStorage[] }) {
  const key = saved?.key;
  return (
    <>
      <label>
        <span className="label">API key</span>
        <input
          aria-label="API key"
          type="password"
          autoComplete="off"
          placeholder={key?.hasKey ? `stored (${key.hint}) — type to replace` : 'sk-…'}
          value={draft.key}
          disabled={readOnly}
          onChange={(e) => edit({ key: e.target.value })}
        />
        {key?.hasKey && !readOnly && (
          <span className="muted">
            Stored: {key.hint} ({STORAGE_WORDS[key.storage]}){' '}
            <label className="inline">
              <input type="checkbox" checked={draft.clearKey} onChange={(e) => edit({ clearKey: e.target.checked })} />{' '}
              forget it
            </label>
          </span>
        )}
        {!readOnly && (
          <span className="muted hint">
            Answers are cleaned of the key and secret values before they reach this window. A secret under 8 characters
            is only matched exactly, so prefer longer ones.
          </span>
        )}
      </label>
      <KeepKey draft={draft} edit={edit} readOnly={readOnly} keyStorages={keyStorages} />
      <label>
        <span className="label">Auth scheme</span>
        <select
          aria-label="Auth scheme"
          value={draft.authScheme}
          disabled={readOnly}
          onChange={(e) => edit({ authScheme: e.target.value as AuthScheme })}
        >
          {AUTH_SCHEMES.map((a) => (
            <option key={a} value={a}>
              {AUTH_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/**
 * Where a new key is kept. Each choice says what this host really does: with no keychain and no key file (the
 * browser host without --persist-keys) there is one place, this session, and no choice to offer.
 */
function KeepKey({ draft, edit, readOnly, keyStorages }: Omit<FieldProps, 'saved'> & { keyStorages: KeyStorage[] }) {
  const persistent = keyStorages.find((k) => k === 'keychain' || k === 'file');
  if (!persistent) {
    return (
      <p className="keep-key">
        <span className="label">Keep the key</span> for this session only: this host keeps no key on disk, so it is gone
        when the host stops (the browser host keeps keys in a 0600 file when started with --persist-keys).
      </p>
    );
  }
  return (
    <label>
      <span className="label">Keep the key</span>
      <select
        aria-label="Keep the key"
        value={draft.keyStorage}
        disabled={readOnly}
        onChange={(e) => edit({ keyStorage: e.target.value as Draft['keyStorage'] })}
      >
        <option value="persist">
          {persistent === 'keychain' ? 'in the OS keychain' : 'in a 0600 file in the data folder'}
        </option>
        <option value="session">for this session only (forgotten when the app stops)</option>
      </select>
    </label>
  );
}

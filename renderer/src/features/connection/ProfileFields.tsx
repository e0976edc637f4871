import { useMemo } from 'react';
import { AUTH_SCHEMES, type AuthScheme, type KeyStorage, type ProfileView } from '../../../../shared/contract';
import { endpointUrls } from '../../../../shared/url';
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
 * Base URL, the exact URL of each endpoint, and, when a saved profile's URL now names another host, whether its
 * stored key and secret header values may go there (docs/security.md).
 */
export function BaseUrlField({ draft, edit, readOnly, saved, savedError }: FieldProps & { savedError?: string }) {
  const preview = useMemo(() => (draft.baseUrl ? endpointUrls(draft.baseUrl) : undefined), [draft.baseUrl]);
  // One error under Base URL: the live one while the URL typed cannot be read, else what the last save said.
  const urlError = preview && !preview.ok ? preview.error : savedError;
  const newHost = newHostFor(draft, saved);
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
            <input
              type="checkbox"
              checked={draft.keepForNewOrigin}
              onChange={(e) => edit({ keepForNewOrigin: e.target.checked })}
            />{' '}
            Keep the key for {newHost.host}?
          </label>
          <span className="muted">
            {draft.keepForNewOrigin
              ? `The stored key and secret header values will be sent to ${newHost.host}.`
              : `Unticked, saving forgets the stored key and secret header values, ` +
                `so ${newHost.host} never receives them.`}
          </span>
        </div>
      )}
    </>
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
      <label>
        <span className="label">Keep the key</span>
        <select
          aria-label="Keep the key"
          value={draft.keyStorage}
          disabled={readOnly}
          onChange={(e) => edit({ keyStorage: e.target.value as Draft['keyStorage'] })}
        >
          {keyStorages.includes('keychain') && <option value="persist">in the OS keychain</option>}
          {keyStorages.includes('file') && <option value="persist">in a 0600 file in the data folder</option>}
          {!keyStorages.some((k) => k === 'keychain' || k === 'file') && (
            <option value="persist">for this session (no keychain here)</option>
          )}
          <option value="session">for this session only</option>
        </select>
      </label>
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

import type { KeyStorage } from '../../../../shared/contract';
import { isSecretRow, namedSecret, type HeaderRow } from './profile-draft';

export const STORAGE_WORDS: Record<KeyStorage | 'profiles-file', string> = {
  keychain: 'OS keychain',
  file: '0600 file',
  session: 'this session only',
  env: 'env',
  none: 'none',
  'profiles-file': 'plain text in profiles.json',
};

function placeholder(h: HeaderRow): string {
  if (!h.status?.hasValue) return 'value';
  return isSecretRow(h) ? `stored (${h.status.hint}) — type to replace` : 'no longer secret: type the value';
}

/**
 * The extra headers of a profile, each with a "secret" switch: on and fixed for a name like a credential's, off
 * by default for any other name. A secret value is kept where the key is and never shown again.
 */
export function HeaderRows({
  headers,
  onChange,
  errors,
  disabled,
}: {
  headers: HeaderRow[];
  onChange: (headers: HeaderRow[]) => void;
  errors: string[];
  disabled: boolean;
}) {
  const edit = (i: number, patch: Partial<HeaderRow>) =>
    onChange(headers.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <fieldset disabled={disabled}>
      <legend>Extra headers</legend>
      <p className="muted">
        A secret header&apos;s value is kept where the key is, sent only to this profile&apos;s host and never shown
        again. A name with key, token, secret, auth, password, jwt, signature or cookie in it is always secret; tick
        &quot;secret&quot; for any other.
      </p>
      {headers.map((h, i) => (
        <div key={i}>
          <div className="header-row">
            <input
              aria-label={`Header ${i + 1} name`}
              placeholder="name"
              value={h.name}
              onChange={(e) => edit(i, { name: e.target.value })}
            />
            <input
              aria-label={`Header ${i + 1} value`}
              type={isSecretRow(h) ? 'password' : 'text'}
              autoComplete="off"
              placeholder={placeholder(h)}
              value={h.value}
              onChange={(e) => edit(i, { value: e.target.value })}
            />
            <label
              className="inline"
              title={namedSecret(h.name) ? 'Named like a credential: always secret' : 'Keep this value like a key'}
            >
              <input
                type="checkbox"
                aria-label={`Header ${i + 1} secret`}
                checked={isSecretRow(h)}
                disabled={namedSecret(h.name)}
                onChange={(e) => edit(i, { secret: e.target.checked })}
              />{' '}
              secret
            </label>
            <button
              type="button"
              className="ghost"
              aria-label={`Remove header ${i + 1}`}
              onClick={() => onChange(headers.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          </div>
          {h.status?.hasValue && h.value === '' && isSecretRow(h) && (
            <span className="muted">
              Stored: {h.status.hint} ({STORAGE_WORDS[h.status.storage]})
            </span>
          )}
        </div>
      ))}
      <button
        type="button"
        className="ghost"
        onClick={() => onChange([...headers, { name: '', value: '', secret: false }])}
      >
        + Add header
      </button>
      {errors.map((v) => (
        <span key={v} className="field-error">
          {v}
        </span>
      ))}
    </fieldset>
  );
}

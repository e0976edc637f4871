/**
 * The Connections form's draft of one profile, and the profiles:save input it becomes. Pure: the rules on
 * secret headers and on a key that would follow a host change live here, where a unit test reaches them.
 */
import type { AuthScheme, ProfileInput, ProfileView, SecretHeaderStatus } from '../../../../shared/contract';
import { SECRET_HEADER } from '../../../../shared/request-headers';

export interface HeaderRow {
  name: string;
  /** For a secret header with a stored value, a new value; '' keeps the stored one. */
  value: string;
  /** The name a secret header's value is stored under in the core, which never sends the value here. */
  stored?: string;
  status?: SecretHeaderStatus;
  /** Marked secret with the row's switch; a name like a credential's is secret whatever this says. */
  secret: boolean;
}

export interface Draft {
  id?: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  key: string;
  keyStorage: 'persist' | 'session';
  clearKey: boolean;
  headers: HeaderRow[];
  /** The user ticked "Keep the key for <host>?" after changing the base URL to another origin. */
  keepForNewOrigin: boolean;
}

export const namedSecret = (name: string) => SECRET_HEADER.test(name.trim());
export const isSecretRow = (h: HeaderRow) => h.secret || namedSecret(h.name);

export const fromProfile = (p?: ProfileView): Draft => ({
  id: p?.id,
  name: p?.name ?? '',
  baseUrl: p?.baseUrl ?? '',
  authScheme: p?.authScheme ?? 'native',
  key: '',
  keyStorage: 'persist',
  clearKey: false,
  keepForNewOrigin: false,
  headers: Object.entries(p?.extraHeaders ?? {}).map(([name, value]) => {
    const status = p?.secretHeaders[name];
    return status ? { name, value: '', stored: name, status, secret: true } : { name, value, secret: false };
  }),
});

/** The origin a base URL reaches, as the core compares it, or undefined while it is not a URL. */
export function originOf(baseUrl: string): { origin: string; host: string } | undefined {
  try {
    const u = new URL(baseUrl.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? { origin: u.origin, host: u.host } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The host the draft now points a saved profile at, when that is another origin than the saved one and the
 * profile holds a key or secret header values the save would otherwise carry over; else undefined.
 */
export function newHostFor(draft: Draft, saved: ProfileView | undefined): { origin: string; host: string } | undefined {
  if (!saved || saved.builtin) return undefined;
  const next = originOf(draft.baseUrl);
  if (!next || next.origin === originOf(saved.baseUrl)?.origin) return undefined;
  const holds = saved.key.hasKey || Object.values(saved.secretHeaders).some((s) => s.hasValue);
  return holds ? next : undefined;
}

export function toInput(draft: Draft, saved: ProfileView | undefined): ProfileInput {
  const extraHeaders: Record<string, string> = {};
  const keepSecretHeaders: Record<string, string> = {};
  const secretHeaders: string[] = [];
  for (const h of draft.headers) {
    const name = h.name.trim();
    if (!name) continue;
    extraHeaders[name] = h.value;
    if (h.secret && !namedSecret(name)) secretHeaders.push(name);
    if (h.stored !== undefined && h.value === '' && isSecretRow(h)) keepSecretHeaders[name] = h.stored;
  }
  const moving = newHostFor(draft, saved);
  return {
    id: draft.id,
    name: draft.name,
    baseUrl: draft.baseUrl,
    authScheme: draft.authScheme,
    extraHeaders,
    keepSecretHeaders,
    secretHeaders,
    ...(moving && draft.keepForNewOrigin ? { keepSecretsForOrigin: moving.origin } : {}),
    key: draft.key || undefined,
    clearKey: draft.clearKey || undefined,
    keyStorage: draft.keyStorage,
  };
}

/** Whether the draft differs from the saved profile in anything a save would send. */
export function isDirty(draft: Draft, saved: ProfileView | undefined): boolean {
  if (!saved) return true;
  const strip = (d: Draft) => ({ ...d, keyStorage: undefined });
  return JSON.stringify(strip(draft)) !== JSON.stringify(strip(fromProfile(saved)));
}

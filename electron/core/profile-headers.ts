/**
 * A profile's secret extra headers and the vault: which headers are secret, under which vault id each value
 * lives, and what a save changes there. Kept apart from ProfileStore, which only decides when to apply it.
 */
import type { z } from 'zod';
import type { ProfileInput } from '../../shared/contract';
import { SECRET_HEADER } from '../../shared/request-headers';
import type { KeyVault } from './vault';
import { describeFsError } from './atomic-file';
import { RunError } from './errors';

const HEADER_ID = '\u0000header:';

/**
 * The vault id of a secret header's value. Keys are stored by profile id (a UUID, 'demo' or 'env'), which
 * never holds a NUL, so the two cannot collide and keys.json keeps its shape. Lowercased: the name is
 * sent lowercased, so a change of case is the same header.
 */
export function secretHeaderId(profileId: string, name: string): string {
  return `${profileId}${HEADER_ID}${name.toLowerCase()}`;
}

export function parseVaultId(id: string): { profileId: string; header?: string } {
  const at = id.indexOf(HEADER_ID);
  return at < 0 ? { profileId: id } : { profileId: id.slice(0, at), header: id.slice(at + HEADER_ID.length) };
}

/** The stored shape of a profile's headers: a header named in `vaulted` has its value in the vault and '' here. */
export interface StoredHeaders {
  id: string;
  extraHeaders: Record<string, string>;
  vaulted: string[];
}

/** One change a save makes to the vault: a value to set, or none to delete; `what` names it in errors. */
export interface VaultChange {
  id: string;
  value?: string;
  persist?: boolean;
  what: string;
}

export interface HeaderPlan {
  extraHeaders: Record<string, string>;
  vaulted: string[];
  changes: VaultChange[];
  /** Field errors, by `extraHeaders.<name>`. */
  errors: Record<string, string>;
}

/** Where a profile's secret header value is now: in the vault, or (saved before the vault held them) in plain text. */
export function storedSecret(e: StoredHeaders, name: string): { vaultId: string } | { value: string } | undefined {
  if (e.vaulted.includes(name)) return { vaultId: secretHeaderId(e.id, name) };
  if (SECRET_HEADER.test(name) && Object.hasOwn(e.extraHeaders, name)) return { value: e.extraHeaders[name] };
  return undefined;
}

/**
 * The extra headers of a save as stored, and the vault changes they need: a new value of a secret header (named
 * like a credential, or marked secret in the form) goes to the vault where the key would, a kept one stays where
 * it is (moved to its new name on a rename), and one no longer there is deleted. Sets come before deletes, so a
 * rename reads the old value first. `dropStored`: the profile's origin changed without the user keeping its
 * secrets for the new one, so a kept header keeps its name but loses its value (see docs/security.md).
 */
export function planHeaders(
  vault: KeyVault,
  id: string,
  existing: StoredHeaders | undefined,
  input: z.output<typeof ProfileInput>,
  dropStored: boolean,
): HeaderPlan {
  const plan: HeaderPlan = { extraHeaders: {}, vaulted: [], changes: [], errors: {} };
  const marked = new Set(input.secretHeaders.map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(input.extraHeaders)) {
    plan.extraHeaders[name] = '';
    const from = input.keepSecretHeaders[name];
    if (from !== undefined && dropStored) plan.vaulted.push(name);
    else if (from !== undefined) keepStored(vault, plan, id, existing, name, from);
    else if ((SECRET_HEADER.test(name) || marked.has(name.toLowerCase())) && value !== '') {
      plan.vaulted.push(name);
      plan.changes.push({
        id: secretHeaderId(id, name),
        value,
        persist: input.keyStorage === 'persist',
        what: `the value of ${name}`,
      });
    } else {
      plan.extraHeaders[name] = value;
    }
  }
  const kept = new Set(plan.vaulted.map((name) => secretHeaderId(id, name)));
  const deleted = new Set<string>();
  for (const name of existing?.vaulted ?? []) {
    const gone = secretHeaderId(id, name);
    const setNow = plan.changes.some((c) => c.id === gone && c.value !== undefined);
    if ((dropStored || !kept.has(gone)) && !setNow && !deleted.has(gone)) {
      deleted.add(gone);
      plan.changes.push({ id: gone, what: `the value of ${name}` });
    }
  }
  return plan;
}

function keepStored(
  vault: KeyVault,
  plan: HeaderPlan,
  id: string,
  existing: StoredHeaders | undefined,
  name: string,
  from: string,
): void {
  const source = existing && storedSecret(existing, from);
  if (!source) {
    plan.errors[`extraHeaders.${name}`] = `No value is stored for ${from}: type the value.`;
    return;
  }
  if ('value' in source) {
    plan.extraHeaders[name] = source.value;
    return;
  }
  plan.vaulted.push(name);
  const target = secretHeaderId(id, name);
  if (target === source.vaultId) return;
  const stored = vault.get(source.vaultId);
  if (stored === undefined) {
    plan.errors[`extraHeaders.${name}`] =
      `The stored value of ${from} could not be decrypted this launch, so it cannot move to ${name}: type it again.`;
  } else {
    plan.changes.push({
      id: target,
      value: stored,
      persist: vault.storageOf(source.vaultId) !== 'session',
      what: `the value of ${name}`,
    });
  }
}

/**
 * The origin a base URL reaches (scheme, host, port), or undefined when it is not a URL. What a key is given
 * for: a new path on the same host is the same gateway, another host or port may be anyone's.
 */
export function originOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl.trim()).origin;
  } catch {
    return undefined;
  }
}

/** Whether two base URLs share an origin. One that cannot be read is no origin at all: always a move. */
export function sameOrigin(a: string, b: string): boolean {
  const origin = originOf(a);
  return origin !== undefined && origin === originOf(b);
}

/**
 * A URL fit to show in a message: its user name and password hidden, and nothing at all of a text that is not
 * a URL (it could be `user:pass@host` without a scheme).
 */
export function urlShown(raw: string): string {
  try {
    const u = new URL(raw.trim());
    return `${u.protocol}//${u.username || u.password ? '[redacted]@' : ''}${u.host}${u.pathname}`;
  } catch {
    return 'a value that is not a URL';
  }
}

/**
 * The credentials in a proxy URL (`http://user:password@proxy:3128`), in the forms a request carries them:
 * each part, `user:password`, and the Basic token built from it. A proxy's error page may quote any of them.
 */
export function proxyCredentials(proxy: string | undefined): string[] {
  if (!proxy) return [];
  let u: URL;
  try {
    u = new URL(proxy);
  } catch {
    return [];
  }
  if (!u.username && !u.password) return [];
  const user = safeDecode(u.username);
  const password = safeDecode(u.password);
  const pair = `${user}:${password}`;
  const basic = Buffer.from(pair).toString('base64');
  return [user, password, pair, basic, `Basic ${basic}`].filter((s) => s !== '');
}

/**
 * What a `Basic` credential header (a profile's Proxy-Authorization, say) holds once decoded: `user:password`
 * and each part, which a proxy's error page may quote in clear.
 */
export function basicCredentials(value: string): string[] {
  const token = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value)?.[1];
  if (!token) return [];
  const pair = Buffer.from(token, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon < 0 || /[\u0000-\u001f]/.test(pair)) return [];
  return [pair, pair.slice(0, colon), pair.slice(colon + 1)].filter((s) => s !== '');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Applies the vault part of a save in order and returns how to put every value back if the save goes no
 * further. If one change cannot be stored, those before it are taken back and nothing is saved.
 */
export async function applyVaultChanges(vault: KeyVault, changes: VaultChange[]): Promise<() => Promise<void>> {
  const undos: (() => Promise<void>)[] = [];
  const undo = async () => {
    // Best effort: the vault keeps its memory as it was when its own file cannot be written either.
    for (const restore of [...undos].reverse()) await restore().catch(() => undefined);
  };
  for (const change of changes) {
    const before = vault.snapshot(change.id);
    undos.push(() => vault.restore(change.id, before));
    try {
      if (change.value === undefined) await vault.delete(change.id);
      else await vault.set(change.id, change.value, change.persist ?? true);
    } catch (err) {
      await undo();
      throw new RunError(
        'unwritable',
        `Nothing was saved: ${change.what} could not be stored (${describeFsError(err)}). Check that the data folder is writable and has free space, or keep ${change.what === 'the key' ? 'the key' : 'it'} for this session only.`,
      );
    }
  }
  return undo;
}

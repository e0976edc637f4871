/**
 * Connection profiles: persisted without keys or secret header values (both go to the vault), plus two
 * built-ins that are never written to disk: the embedded Demo gateway and, when GATEWAY_BASE_URL is set, an
 * Environment profile whose key stays in memory.
 */
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AUTH_SCHEMES,
  headerValueProblem,
  ProfileInput,
  type AuthScheme,
  type KeyStorage,
  type ProfilesState,
  type ProfileView,
  type SecretHeaderStatus,
  type StartupProblem,
} from '../../shared/contract';
import { SECRET_HEADER } from '../../shared/request-headers';
import { endpointInBase, joinUrl, normalizeBaseUrl } from '../../shared/url';
import { describeFsError, readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { proxyFor } from './http/proxy';
import { requestSecrets } from './secrets';
import {
  basicCredentials,
  parseVaultId,
  planHeaders,
  proxyCredentials,
  sameOrigin,
  secretHeaderId,
  storedSecret,
  urlShown,
  applyVaultChanges,
  type VaultChange,
} from './profile-headers';
import { FieldError, RunError, unwritable } from './errors';
import { keyHint, type KeyVault } from './vault';
import { keepOnMove, type Confirmer } from './confirmer';

export const DEMO_PROFILE_ID = 'demo';
export const ENV_PROFILE_ID = 'env';
export { secretHeaderId } from './profile-headers';

/** A profile as requests use it: every extra header with its real value. Only the core ever holds one. */
export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  extraHeaders: Record<string, string>;
  /** Extra headers marked secret in the form although their names do not say so: redacted like a credential's. */
  secretHeaders?: string[];
  builtin?: 'demo' | 'env';
}

/** A profile as the store keeps it: a header named in `vaulted` has its value in the vault and '' here. */
interface Entry extends Profile {
  vaulted: string[];
}

const StoredProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string().min(1),
  authScheme: z.enum(AUTH_SCHEMES),
  /** A secret header's value is '' here: it is in the vault. */
  extraHeaders: z.record(z.string(), z.string()),
  /** Extra headers whose values are in the vault; absent in files written before they went there. */
  secretHeaders: z.array(z.string()).optional(),
});
const ProfilesFile = z.object({
  version: z.literal(1),
  activeId: z.string().optional(),
  profiles: z.array(StoredProfile),
});

export class ProfileStore {
  private profiles: Entry[] = [];
  private activeId = DEMO_PROFILE_ID;
  private readonly builtinKeys = new Map<string, string>();
  private readonly file: string;
  /** profiles.json writes, one after another: the last change made is the one on disk. */
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    private readonly vault: KeyVault,
    private readonly builtins: { demo: { baseUrl: string; key: string }; env?: { baseUrl: string; key?: string } },
    /** How the host asks the user outside the page; without one, a key never follows a host change. */
    private readonly confirmer?: Confirmer,
  ) {
    this.file = path.join(dataDir, 'profiles.json');
  }

  async load(): Promise<StartupProblem[]> {
    const problems: StartupProblem[] = [...(await this.vault.load())];
    const read = await readJsonFile(this.file, ProfilesFile);
    if (read.problem) problems.push(read.problem);
    this.profiles = [
      {
        id: DEMO_PROFILE_ID,
        name: 'Demo gateway',
        baseUrl: this.builtins.demo.baseUrl,
        authScheme: 'native',
        extraHeaders: {},
        vaulted: [],
        builtin: 'demo',
      },
    ];
    this.builtinKeys.set(DEMO_PROFILE_ID, this.builtins.demo.key);
    const env = this.builtins.env;
    if (env && normalizeBaseUrl(env.baseUrl).ok) {
      this.profiles.push({
        id: ENV_PROFILE_ID,
        name: 'Environment',
        baseUrl: env.baseUrl,
        authScheme: 'native',
        extraHeaders: {},
        vaulted: [],
        builtin: 'env',
      });
      if (env.key) this.builtinKeys.set(ENV_PROFILE_ID, env.key);
    } else if (env) {
      const base = normalizeBaseUrl(env.baseUrl);
      const why = base.ok ? '' : base.error;
      problems.push({
        file: 'GATEWAY_BASE_URL',
        message: `GATEWAY_BASE_URL (${urlShown(env.baseUrl)}): ${why}; the Environment profile was not added.`,
      });
    }
    for (const { secretHeaders, ...p } of read.value?.profiles ?? []) {
      if (p.id === DEMO_PROFILE_ID || p.id === ENV_PROFILE_ID) continue;
      this.profiles.push({
        ...p,
        vaulted: (secretHeaders ?? []).filter((name) => Object.hasOwn(p.extraHeaders, name)),
      });
    }
    const wanted = read.value?.activeId ?? (this.has(ENV_PROFILE_ID) ? ENV_PROFILE_ID : DEMO_PROFILE_ID);
    this.activeId = this.has(wanted) ? wanted : DEMO_PROFILE_ID;
    problems.push(...(await this.movePlainSecrets()));
    const locked = this.vault.undecryptable().map((id) => {
      const { profileId, header } = parseVaultId(id);
      const name = `"${this.entry(profileId)?.name ?? profileId}"`;
      return header === undefined ? `key for ${name}` : `value of header ${header} for ${name}`;
    });
    if (locked.length) {
      problems.push({
        file: 'keys.json',
        message:
          `The saved ${locked.join(', ')} could not be decrypted (the keychain may be locked, ` +
          'or the file comes from another computer). It was kept as it is and will be tried again at the next start; ' +
          'enter it again to replace it.',
      });
    }
    // Keys saved before they were checked can hold a line break: every request with one fails, so say so now.
    const unsendable = this.profiles.filter((p) => {
      const key = this.keyFor(p.id);
      return key !== undefined && headerValueProblem(key, false) !== undefined;
    });
    if (unsendable.length) {
      problems.push({
        file: 'keys',
        message:
          `The saved key for ${unsendable.map((p) => `"${p.name}"`).join(', ')} contains a line break or a character no HTTP header can carry, ` +
          'so every request with it fails. Enter the key again in Connections.',
      });
    }
    return problems;
  }

  /**
   * Secret header values in plain text in profiles.json (saved before they went to the vault) move to the
   * vault's persistent layer, then profiles.json is rewritten without them: written in that order, a value
   * that cannot be moved all the way is in both places, never in neither. With no persistent layer (no
   * keychain, or keys.json belongs to another host) the value stays in profiles.json: keeping it for this
   * session only would lose it at the next start. It is still never sent to the renderer, and a problem says
   * where it is.
   */
  private async movePlainSecrets(): Promise<StartupProblem[]> {
    const plain = this.profiles.flatMap((p) =>
      Object.entries(p.extraHeaders)
        .filter(([name, value]) => value !== '' && !p.vaulted.includes(name) && SECRET_HEADER.test(name))
        .map(([name, value]) => ({ p, name, value })),
    );
    if (!plain.length) return [];
    const where = (list: typeof plain) => list.map(({ p, name }) => `${name} of "${p.name}"`).join(', ');
    if (!this.vault.persistentKind) {
      return [
        {
          file: this.file,
          message:
            `The value of ${where(plain)} is kept in plain text in profiles.json, where it was saved: this host has no keychain or key file to move it to. ` +
            'Type the value again to keep it for this session only, or open the app where a keychain is available to move it there.',
        },
      ];
    }
    const moved = new Map<Entry, string[]>();
    for (const m of plain) {
      try {
        await this.vault.set(secretHeaderId(m.p.id, m.name), m.value, true);
      } catch (err) {
        return [
          {
            file: this.file,
            message: `The value of ${where(plain)} is still in plain text in profiles.json: it could not be moved to the key store (${describeFsError(err)}). Moving it will be tried again at the next start.`,
          },
        ];
      }
      moved.set(m.p, [...(moved.get(m.p) ?? []), m.name]);
    }
    const next = this.profiles.map((p) => {
      const names = moved.get(p);
      if (!names) return p;
      const extraHeaders = Object.fromEntries(
        Object.entries(p.extraHeaders).map(([n, v]) => [n, names.includes(n) ? '' : v]),
      );
      return { ...p, extraHeaders, vaulted: [...p.vaulted, ...names] };
    });
    // The vault holds the values now, whether or not profiles.json can be rewritten: the next save drops them there.
    this.profiles = next;
    try {
      await this.queued(() => this.write(next, this.activeId));
    } catch (err) {
      return [
        {
          file: this.file,
          message: `The value of ${where(plain)} was moved to the key store, but profiles.json could not be rewritten (${describeFsError(err)}), so it also stays there in plain text until the next save.`,
        },
      ];
    }
    return [];
  }

  has(id: string): boolean {
    return this.profiles.some((p) => p.id === id);
  }

  /** The profile with the real values of its secret headers, for sending requests. */
  get(id: string): Profile | undefined {
    const e = this.entry(id);
    if (!e) return undefined;
    const { vaulted, ...profile } = e;
    const marked = vaulted.filter((name) => !SECRET_HEADER.test(name));
    return { ...profile, extraHeaders: this.resolvedHeaders(e), ...(marked.length ? { secretHeaders: marked } : {}) };
  }

  private entry(id: string): Entry | undefined {
    return this.profiles.find((p) => p.id === id);
  }

  /** A header whose value could not be decrypted this launch is left out: it was reported at start-up. */
  private resolvedHeaders(e: Entry): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(e.extraHeaders)) {
      const real = e.vaulted.includes(name) ? this.vault.get(secretHeaderId(e.id, name)) : value;
      if (real !== undefined) headers[name] = real;
    }
    return headers;
  }

  /** Every key and secret header value known to this store (to keep them out of anything written elsewhere). */
  allKeys(): string[] {
    return this.profiles.flatMap((p) => this.secretsOf(p));
  }

  /**
   * What a request with this profile carries that must never come back out of the core: its key and its
   * secret header values, at least 4 characters as `scrub` needs. A value of the form `Bearer sk-…` also
   * gives its credentials alone, since a gateway may quote only those ("invalid token sk-…").
   */
  secretsFor(id: string): string[] {
    const e = this.entry(id);
    return e ? this.secretsOf(e) : [];
  }

  /**
   * Proxy credentials count too: the proxy's user name and password from https_proxy and friends, in every form
   * a request carries them, and what a `Basic` header value (a profile's Proxy-Authorization) decodes to, since a
   * proxy's error page may quote them back.
   */
  private secretsOf(e: Entry): string[] {
    const own = requestSecrets(this.keyFor(e.id), this.resolvedHeaders(e), (name) => this.isSecret(e, name));
    let proxy: string | undefined;
    try {
      proxy = proxyFor(joinUrl(e.baseUrl, '/v1/models'));
    } catch {
      proxy = undefined;
    }
    const basic = own.flatMap(basicCredentials);
    return [...new Set([...own, ...[...basic, ...proxyCredentials(proxy)].filter((s) => s.length >= 4)])];
  }

  private isSecret(e: Entry, name: string): boolean {
    return e.vaulted.includes(name) || SECRET_HEADER.test(name);
  }

  keyFor(id: string): string | undefined {
    return this.builtinKeys.get(id) ?? this.vault.get(id);
  }

  /**
   * A digest of everything that decides which gateway a profile reaches and as whom: what was learnt about a
   * profile (its model list, probe results) holds only while this stays the same. Hashed so the key and the
   * secret header values are not kept around in yet another string.
   */
  connectionFingerprint(id: string): string | undefined {
    const p = this.get(id);
    if (!p) return undefined;
    const base = normalizeBaseUrl(p.baseUrl);
    // Header names are case-insensitive on the wire, so "X-Tenant" and "x-tenant" reach the same gateway.
    const headers = Object.entries(p.extraHeaders)
      .map(([k, v]) => [k.toLowerCase(), v])
      .sort(([a], [b]) => a.localeCompare(b));
    const parts = [base.ok ? base.normalized : p.baseUrl, p.authScheme, headers, this.keyFor(id) ?? null];
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  state(): ProfilesState {
    const storages: KeyStorage[] = this.vault.persistentKind ? [this.vault.persistentKind, 'session'] : ['session'];
    return {
      profiles: this.profiles.map((p) => this.view(p)),
      activeId: this.activeId,
      keyStorages: storages,
      asksOutsidePage: this.confirmer !== undefined,
    };
  }

  private view(p: Entry): ProfileView {
    const key = this.keyFor(p.id);
    const storage: KeyStorage =
      p.builtin === 'env' ? 'env' : p.builtin === 'demo' ? 'session' : this.vault.storageOf(p.id);
    const extraHeaders: Record<string, string> = {};
    const secretHeaders: Record<string, SecretHeaderStatus> = {};
    for (const [name, value] of Object.entries(p.extraHeaders)) {
      if (!this.isSecret(p, name)) {
        extraHeaders[name] = value;
        continue;
      }
      extraHeaders[name] = '';
      const id = secretHeaderId(p.id, name);
      const inVault = p.vaulted.includes(name);
      const real = inVault ? this.vault.get(id) : value;
      secretHeaders[name] = real
        ? { hasValue: true, hint: keyHint(real), storage: inVault ? this.vault.storageOf(id) : 'profiles-file' }
        : { hasValue: false, storage: 'none' };
    }
    return {
      id: p.id,
      name: p.name,
      baseUrl: p.baseUrl,
      authScheme: p.authScheme,
      extraHeaders,
      secretHeaders,
      key: key ? { hasKey: true, hint: keyHint(key), storage } : { hasKey: false, storage: 'none' },
      builtin: p.builtin,
    };
  }

  /**
   * Each change runs in the write queue, validated against the state the previous change left, and is applied
   * in memory only once profiles.json holds it: a failed write leaves the list, the active profile and the key
   * as they were, so the error is the whole story and the same save can simply be tried again.
   */
  async save(raw: ProfileInput): Promise<ProfilesState> {
    return (await this.saveComparing(raw)).state;
  }

  /**
   * `save`, also telling whether the saved profile now reaches another gateway or as someone else (see
   * `connectionFingerprint`). Compared inside the write queue: read around it, two overlapping saves (one
   * changing the URL, the next changing it back) could each see no change, and a model list fetched between
   * them would stay cached for the wrong gateway.
   */
  async saveComparing(raw: ProfileInput): Promise<{ state: ProfilesState; connectionChanged: boolean }> {
    const input = ProfileInput.parse(raw);
    const base = normalizeBaseUrl(input.baseUrl);
    if (!base.ok) throw new FieldError({ baseUrl: base.error });
    const doubled = endpointInBase(input.baseUrl);
    if (doubled) {
      throw new FieldError({
        baseUrl: `ends in ${doubled.found}, which every endpoint adds again: did you mean ${doubled.suggestion}?`,
      });
    }
    return this.queued(async () => {
      const existing = input.id ? this.entry(input.id) : undefined;
      const before = existing ? this.connectionFingerprint(existing.id) : undefined;
      if (input.id && !existing) throw new FieldError({ id: `No profile with id ${input.id}.` });
      if (existing?.builtin) throw new FieldError({ name: `${existing.name} is built in and cannot be edited.` });
      const clash = this.profiles.find(
        (p) => p.name.toLowerCase() === input.name.toLowerCase() && p.id !== existing?.id,
      );
      if (clash) throw new FieldError({ name: `A profile named "${clash.name}" already exists.` }, 'name_taken');
      const id = existing?.id ?? randomUUID();
      // A stored key is for the origin it was typed for: it follows elsewhere only on the user's yes outside the page.
      const moved =
        existing !== undefined &&
        !sameOrigin(existing.baseUrl, input.baseUrl) &&
        !(await keepOnMove(
          this.confirmer,
          {
            profileName: existing.name,
            fromUrl: existing.baseUrl,
            toUrl: input.baseUrl,
            key: this.keyFor(existing.id) !== undefined,
            headers: Object.keys(existing.extraHeaders).some((n) => storedSecret(existing, n) !== undefined),
          },
          input.keepSecretsForOrigin,
        ));
      const headers = planHeaders(this.vault, id, existing, input, moved);
      if (Object.keys(headers.errors).length) throw new FieldError(headers.errors);
      const profile: Entry = {
        id,
        name: input.name,
        baseUrl: input.baseUrl,
        authScheme: input.authScheme,
        extraHeaders: headers.extraHeaders,
        vaulted: headers.vaulted,
      };
      const next = existing ? this.profiles.map((p) => (p === existing ? profile : p)) : [...this.profiles, profile];
      const changes: VaultChange[] = [];
      if (input.clearKey || (moved && !input.key)) changes.push({ id, what: 'the key' });
      if (input.key) changes.push({ id, value: input.key, persist: input.keyStorage === 'persist', what: 'the key' });
      const undo = await applyVaultChanges(this.vault, [...changes, ...headers.changes]);
      try {
        // A new profile does not take over from the one in use unless the user asked for it.
        await this.commit(next, input.use ? profile.id : this.activeId);
      } catch (err) {
        await undo();
        throw err;
      }
      return {
        state: this.state(),
        connectionChanged: existing !== undefined && before !== this.connectionFingerprint(id),
      };
    });
  }

  async delete(id: string): Promise<ProfilesState> {
    return this.queued(async () => {
      const p = this.entry(id);
      if (!p) throw new FieldError({ id: `No profile with id ${id}.` });
      if (p.builtin) throw new FieldError({ id: `${p.name} is built in and cannot be deleted.` });
      await this.commit(
        this.profiles.filter((x) => x.id !== id),
        this.activeId === id ? DEMO_PROFILE_ID : this.activeId,
      );
      // After the profile is gone rather than before: a key dropped first would be lost for a profile that
      // stays, while a key left behind belongs to nothing and is only reported.
      for (const vaultId of [id, ...p.vaulted.map((name) => secretHeaderId(id, name))]) {
        await this.vault.delete(vaultId).catch((err: unknown) => {
          throw new RunError(
            'unwritable',
            `"${p.name}" was deleted, but its saved key or header values could not be removed (${describeFsError(err)}). Check that the data folder is writable.`,
          );
        });
      }
      return this.state();
    });
  }

  async select(id: string): Promise<ProfilesState> {
    return this.queued(async () => {
      if (!this.has(id)) throw new FieldError({ id: `No profile with id ${id}.` });
      await this.commit(this.profiles, id);
      return this.state();
    });
  }

  /** Writes this list and active profile, and makes them the store's state once they are on disk. */
  private async commit(profiles: Entry[], activeId: string): Promise<void> {
    try {
      await this.write(profiles, activeId);
    } catch (err) {
      throw unwritable(this.file, err);
    }
    this.profiles = profiles;
    this.activeId = activeId;
  }

  private async write(profiles: Entry[], activeId: string): Promise<void> {
    const stored = profiles
      .filter((p) => !p.builtin)
      .map(({ builtin: _b, vaulted, ...p }) => (vaulted.length ? { ...p, secretHeaders: vaulted } : p));
    await writeJsonAtomic(this.file, { version: 1, activeId, profiles: stored });
  }
}

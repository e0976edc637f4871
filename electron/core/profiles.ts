/**
 * Connection profiles: persisted without keys (keys go to the vault), plus two built-ins that are never
 * written to disk: the embedded Demo gateway and, when GATEWAY_BASE_URL is set, an Environment profile whose
 * key stays in memory.
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
  type StartupProblem,
} from '../../shared/contract';
import { normalizeBaseUrl } from '../../shared/url';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { RunError } from './runs';
import { keyHint, type KeyVault } from './vault';

export const DEMO_PROFILE_ID = 'demo';
export const ENV_PROFILE_ID = 'env';

export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  extraHeaders: Record<string, string>;
  builtin?: 'demo' | 'env';
}

const StoredProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string().min(1),
  authScheme: z.enum(AUTH_SCHEMES),
  extraHeaders: z.record(z.string(), z.string()),
});
const ProfilesFile = z.object({
  version: z.literal(1),
  activeId: z.string().optional(),
  profiles: z.array(StoredProfile),
});

export class FieldError extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields).join('; '));
  }
}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
};

/** A file-system failure in words a user can act on, keeping the errno code to search for. */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && FS_REASONS[code]) return `${FS_REASONS[code]}, ${code}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A data file that could not be written, as the call's error: code `unwritable`, naming the file. Callers
 * throw it only when nothing was changed, so trying again after fixing the folder is safe.
 */
export function unwritable(file: string, err: unknown): RunError {
  return new RunError(
    'unwritable',
    `Nothing was saved: ${file} could not be written (${describeFsError(err)}). Check that the data folder is writable and has free space, then try again.`,
  );
}

export class ProfileStore {
  private profiles: Profile[] = [];
  private activeId = DEMO_PROFILE_ID;
  private readonly builtinKeys = new Map<string, string>();
  private readonly file: string;
  /** profiles.json writes, one after another: the last change made is the one on disk. */
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    private readonly vault: KeyVault,
    private readonly builtins: { demo: { baseUrl: string; key: string }; env?: { baseUrl: string; key?: string } },
  ) {
    this.file = path.join(dataDir, 'profiles.json');
  }

  async load(): Promise<StartupProblem[]> {
    const problems: StartupProblem[] = [...(await this.vault.load())];
    const read = await readJsonFile(this.file, ProfilesFile);
    if (read.problem) problems.push(read.problem);
    this.profiles = [
      { id: DEMO_PROFILE_ID, name: 'Demo gateway', baseUrl: this.builtins.demo.baseUrl, authScheme: 'native', extraHeaders: {}, builtin: 'demo' },
    ];
    this.builtinKeys.set(DEMO_PROFILE_ID, this.builtins.demo.key);
    const env = this.builtins.env;
    if (env && normalizeBaseUrl(env.baseUrl).ok) {
      this.profiles.push({ id: ENV_PROFILE_ID, name: 'Environment', baseUrl: env.baseUrl, authScheme: 'native', extraHeaders: {}, builtin: 'env' });
      if (env.key) this.builtinKeys.set(ENV_PROFILE_ID, env.key);
    } else if (env) {
      problems.push({ file: 'GATEWAY_BASE_URL', message: `GATEWAY_BASE_URL is not an http(s) URL (${env.baseUrl}); the Environment profile was not added.` });
    }
    for (const p of read.value?.profiles ?? []) {
      if (p.id === DEMO_PROFILE_ID || p.id === ENV_PROFILE_ID) continue;
      this.profiles.push(p);
    }
    const wanted = read.value?.activeId ?? (this.has(ENV_PROFILE_ID) ? ENV_PROFILE_ID : DEMO_PROFILE_ID);
    this.activeId = this.has(wanted) ? wanted : DEMO_PROFILE_ID;
    const locked = this.vault.undecryptable().map((id) => this.get(id)?.name ?? id);
    if (locked.length) {
      problems.push({
        file: 'keys.json',
        message:
          `The saved key for ${locked.map((n) => `"${n}"`).join(', ')} could not be decrypted (the keychain may be locked, ` +
          'or the file comes from another computer). It was kept as it is and will be tried again at the next start; ' +
          'enter the key again to replace it.',
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

  has(id: string): boolean {
    return this.profiles.some((p) => p.id === id);
  }

  get(id: string): Profile | undefined {
    return this.profiles.find((p) => p.id === id);
  }

  /** Every key known to this store (to keep them out of anything written elsewhere). */
  allKeys(): string[] {
    return this.profiles.map((p) => this.keyFor(p.id)).filter((k): k is string => !!k);
  }

  keyFor(id: string): string | undefined {
    return this.builtinKeys.get(id) ?? this.vault.get(id);
  }

  /**
   * A digest of everything that decides which gateway a profile reaches and as whom: what was learnt about a
   * profile (its model list, probe results) holds only while this stays the same. Hashed so the key is not
   * kept around in yet another string.
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
    return { profiles: this.profiles.map((p) => this.view(p)), activeId: this.activeId, keyStorages: storages };
  }

  private view(p: Profile): ProfileView {
    const key = this.keyFor(p.id);
    const storage: KeyStorage = p.builtin === 'env' ? 'env' : p.builtin === 'demo' ? 'session' : this.vault.storageOf(p.id);
    return {
      id: p.id,
      name: p.name,
      baseUrl: p.baseUrl,
      authScheme: p.authScheme,
      extraHeaders: { ...p.extraHeaders },
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
    const input = ProfileInput.parse(raw);
    const base = normalizeBaseUrl(input.baseUrl);
    if (!base.ok) throw new FieldError({ baseUrl: base.error });
    return this.queued(async () => {
      const existing = input.id ? this.get(input.id) : undefined;
      if (input.id && !existing) throw new FieldError({ id: `No profile with id ${input.id}.` });
      if (existing?.builtin) throw new FieldError({ name: `${existing.name} is built in and cannot be edited.` });
      const clash = this.profiles.find((p) => p.name.toLowerCase() === input.name.toLowerCase() && p.id !== existing?.id);
      if (clash) throw new FieldError({ name: `A profile named "${clash.name}" already exists.` });
      const profile: Profile = {
        id: existing?.id ?? randomUUID(),
        name: input.name,
        baseUrl: input.baseUrl,
        authScheme: input.authScheme,
        extraHeaders: input.extraHeaders,
      };
      const next = existing ? this.profiles.map((p) => (p === existing ? profile : p)) : [...this.profiles, profile];
      const undoKey = await this.changeKey(profile.id, input);
      try {
        await this.commit(next, profile.id);
      } catch (err) {
        await undoKey();
        throw err;
      }
      return this.state();
    });
  }

  /** Applies the key part of a save and returns how to put the previous key back if the save goes no further. */
  private async changeKey(id: string, input: ProfileInput): Promise<() => Promise<void>> {
    if (!input.clearKey && !input.key) return async () => undefined;
    const before = this.vault.get(id);
    const beforeStorage = this.vault.storageOf(id);
    const undo = async () => {
      // Best effort: the vault puts its memory back even when its own file cannot be written either.
      const restored = before === undefined ? this.vault.delete(id) : this.vault.set(id, before, beforeStorage !== 'session');
      await restored.catch(() => undefined);
    };
    try {
      if (input.clearKey) await this.vault.delete(id);
      if (input.key) await this.vault.set(id, input.key, input.keyStorage === 'persist');
    } catch (err) {
      await undo();
      throw new RunError(
        'unwritable',
        `Nothing was saved: the key could not be stored (${describeFsError(err)}). Check that the data folder is writable and has free space, or keep the key for this session only.`,
      );
    }
    return undo;
  }

  async delete(id: string): Promise<ProfilesState> {
    return this.queued(async () => {
      const p = this.get(id);
      if (!p) throw new FieldError({ id: `No profile with id ${id}.` });
      if (p.builtin) throw new FieldError({ id: `${p.name} is built in and cannot be deleted.` });
      await this.commit(
        this.profiles.filter((x) => x.id !== id),
        this.activeId === id ? DEMO_PROFILE_ID : this.activeId,
      );
      // After the profile is gone rather than before: a key dropped first would be lost for a profile that
      // stays, while a key left behind belongs to nothing and is only reported.
      await this.vault.delete(id).catch((err: unknown) => {
        throw new RunError('unwritable', `"${p.name}" was deleted, but its saved key could not be removed (${describeFsError(err)}). Check that the data folder is writable.`);
      });
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
  private async commit(profiles: Profile[], activeId: string): Promise<void> {
    const stored = profiles.filter((p) => !p.builtin).map(({ builtin: _b, ...p }) => p);
    try {
      await writeJsonAtomic(this.file, { version: 1, activeId, profiles: stored });
    } catch (err) {
      throw unwritable(this.file, err);
    }
    this.profiles = profiles;
    this.activeId = activeId;
  }
}

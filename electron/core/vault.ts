/**
 * Where keys live, and the values of secret extra headers (under ids from secretHeaderId in profile-headers.ts). The
 * key is handed to the core once and never leaves it: the contract only carries a KeyStatus (hasKey + last
 * four characters). Electron's vault (safeStorage) lives in electron/main so the core never imports `electron`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeyStorage, StartupProblem } from '../../shared/contract';
import { moveAside, writeJsonAtomic, writeQueue } from './atomic-file';

export interface KeyVault {
  /** The persistent storage this vault offers, or undefined when only the session is possible. */
  readonly persistentKind: Extract<KeyStorage, 'keychain' | 'file'> | undefined;
  /** Reads the persistent layer; what could not be read is returned as start-up problems. */
  load(): Promise<StartupProblem[]>;
  /** Profiles whose saved key is on disk but could not be decrypted this launch (kept, not lost). */
  undecryptable(): string[];
  get(profileId: string): string | undefined;
  storageOf(profileId: string): KeyStorage;
  set(profileId: string, key: string, persist: boolean): Promise<void>;
  delete(profileId: string): Promise<void>;
  /** All that is held for one id, to put back exactly with restore() when a change goes no further. */
  snapshot(profileId: string): VaultEntry;
  restore(profileId: string, entry: VaultEntry): Promise<void>;
}

/**
 * One id's values in each layer. `locked` is a saved blob that did not decrypt this launch: get() cannot
 * return it, so an undo built from get() alone would delete it for good.
 */
export interface VaultEntry {
  session?: string;
  persisted?: string;
  locked?: string;
}

export function keyHint(key: string): string {
  return key.length >= 8 ? `…${key.slice(-4)}` : '…';
}

/** Session keys in memory, plus an optional persistent layer (0600 file or keychain-encrypted blobs). */
export class LayeredVault implements KeyVault {
  private readonly session = new Map<string, string>();
  private persisted = new Map<string, string>();
  /**
   * Blobs that did not decrypt at load (keychain locked or access denied this launch, or another machine's
   * keychain), exactly as read. They are written back untouched on every save until the user sets or deletes
   * that profile's key: dropping them would erase the key for good on the next save.
   */
  private locked = new Map<string, string>();
  /** keys.json writes, one after another: the last change made is the one on disk. */
  private readonly queued = writeQueue();

  /** The encoding keys.json was written in by another host (the desktop app's keychain, say), when not ours. */
  private foreign: string | undefined;

  /** None while keys.json belongs to another host's encoding: writing ours over it would destroy its keys. */
  get persistentKind(): 'keychain' | 'file' | undefined {
    return this.foreign === undefined ? this.kind : undefined;
  }

  constructor(
    private readonly kind: 'keychain' | 'file' | undefined,
    private readonly file: string | undefined,
    private readonly codec: { encode(key: string): string; decode(blob: string): string } = {
      encode: (k) => Buffer.from(k, 'utf8').toString('base64'),
      decode: (b) => Buffer.from(b, 'base64').toString('utf8'),
    },
  ) {}

  async load(): Promise<StartupProblem[]> {
    if (!this.file || !this.kind) return [];
    try {
      const raw = JSON.parse(await fs.readFile(this.file, 'utf8')) as {
        version: number;
        encoding?: string;
        keys: Record<string, string>;
      };
      if (raw.encoding !== undefined && raw.encoding !== this.kind) {
        // Both hosts can share one data folder: the browser host must not read the desktop app's keychain blobs
        // as its own (they would be sent as garbage keys) nor rewrite them (they could never be decrypted again).
        this.foreign = raw.encoding;
        return [
          {
            file: this.file,
            message: `${path.basename(this.file)} holds keys saved by another host of this app (stored as "${raw.encoding}"). They are left untouched; keys entered here are kept for this session only.`,
          },
        ];
      }
      for (const [id, blob] of Object.entries(raw.keys ?? {})) {
        try {
          this.persisted.set(id, this.codec.decode(blob));
        } catch {
          this.locked.set(id, blob);
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        return [
          await moveAside(this.file, `could not be read (${(err as Error).message}); saved keys must be entered again`),
        ];
      }
    }
    return [];
  }

  undecryptable(): string[] {
    return [...this.locked.keys()];
  }

  get(profileId: string): string | undefined {
    return this.session.get(profileId) ?? this.persisted.get(profileId);
  }

  storageOf(profileId: string): KeyStorage {
    if (this.session.has(profileId)) return 'session';
    if (this.persisted.has(profileId)) return this.persistentKind ?? 'session';
    return 'none';
  }

  async set(profileId: string, key: string, persist: boolean): Promise<void> {
    if (persist && this.persistentKind && this.file) {
      await this.save((persisted, locked) => {
        locked.delete(profileId);
        persisted.set(profileId, key);
        return true;
      });
      this.session.delete(profileId);
    } else {
      // A key typed now replaces the saved one, readable or not: the user chose where this one lives.
      await this.save((persisted, locked) => [persisted.delete(profileId), locked.delete(profileId)].some(Boolean));
      this.session.set(profileId, key);
    }
  }

  async delete(profileId: string): Promise<void> {
    await this.save((persisted, locked) => [persisted.delete(profileId), locked.delete(profileId)].some(Boolean));
    this.session.delete(profileId);
  }

  snapshot(profileId: string): VaultEntry {
    const entry: VaultEntry = {};
    if (this.session.has(profileId)) entry.session = this.session.get(profileId);
    if (this.persisted.has(profileId)) entry.persisted = this.persisted.get(profileId);
    if (this.locked.has(profileId)) entry.locked = this.locked.get(profileId);
    return entry;
  }

  async restore(profileId: string, entry: VaultEntry): Promise<void> {
    const put = (map: Map<string, string>, value: string | undefined): boolean => {
      if (value === undefined) return map.delete(profileId);
      const changed = map.get(profileId) !== value;
      map.set(profileId, value);
      return changed;
    };
    await this.save((persisted, locked) => [put(persisted, entry.persisted), put(locked, entry.locked)].some(Boolean));
    if (entry.session === undefined) this.session.delete(profileId);
    else this.session.set(profileId, entry.session);
  }

  /**
   * Applies `change` to copies of the saved keys as they are when this write's turn comes (see writeQueue),
   * writes them if it changed anything, and only then makes them the vault's: a write that fails leaves
   * memory agreeing with the file, so no key is reported saved that the next launch would not find.
   */
  private save(change: (persisted: Map<string, string>, locked: Map<string, string>) => boolean): Promise<void> {
    return this.queued(async () => {
      if (!this.file) return;
      const persisted = new Map(this.persisted);
      const locked = new Map(this.locked);
      if (!change(persisted, locked)) return;
      const keys: Record<string, string> = Object.fromEntries(locked);
      for (const [id, key] of persisted) keys[id] = this.codec.encode(key);
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeJsonAtomic(this.file, { version: 1, encoding: this.kind, keys }, 0o600);
      this.persisted = persisted;
      this.locked = locked;
    });
  }
}

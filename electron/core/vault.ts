/**
 * Where keys live. The key is handed to the core once and never leaves it: the contract only carries a
 * KeyStatus (hasKey + last four characters). Electron's vault (safeStorage) lives in electron/main so the
 * core never imports `electron`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeyStorage } from '../../shared/contract';
import { writeJsonAtomic } from './atomic-file';

export interface KeyVault {
  /** The persistent storage this vault offers, or undefined when only the session is possible. */
  readonly persistentKind: Extract<KeyStorage, 'keychain' | 'file'> | undefined;
  load(): Promise<void>;
  get(profileId: string): string | undefined;
  storageOf(profileId: string): KeyStorage;
  set(profileId: string, key: string, persist: boolean): Promise<void>;
  delete(profileId: string): Promise<void>;
}

export function keyHint(key: string): string {
  return key.length >= 8 ? `…${key.slice(-4)}` : '…';
}

/** Session keys in memory, plus an optional persistent layer (0600 file or keychain-encrypted blobs). */
export class LayeredVault implements KeyVault {
  private readonly session = new Map<string, string>();
  private persisted = new Map<string, string>();

  constructor(
    readonly persistentKind: 'keychain' | 'file' | undefined,
    private readonly file: string | undefined,
    private readonly codec: { encode(key: string): string; decode(blob: string): string } = {
      encode: (k) => Buffer.from(k, 'utf8').toString('base64'),
      decode: (b) => Buffer.from(b, 'base64').toString('utf8'),
    },
  ) {}

  async load(): Promise<void> {
    if (!this.file || !this.persistentKind) return;
    try {
      const raw = JSON.parse(await fs.readFile(this.file, 'utf8')) as { version: number; keys: Record<string, string> };
      for (const [id, blob] of Object.entries(raw.keys ?? {})) {
        try {
          this.persisted.set(id, this.codec.decode(blob));
        } catch {
          // A blob from another machine's keychain cannot be decrypted: the profile simply has no key.
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        await fs.rename(this.file, `${this.file}.corrupt-${Date.now()}`).catch(() => undefined);
      }
    }
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
      this.session.delete(profileId);
      this.persisted.set(profileId, key);
      await this.save();
    } else {
      const hadPersisted = this.persisted.delete(profileId);
      this.session.set(profileId, key);
      if (hadPersisted) await this.save();
    }
  }

  async delete(profileId: string): Promise<void> {
    this.session.delete(profileId);
    if (this.persisted.delete(profileId)) await this.save();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    const keys: Record<string, string> = {};
    for (const [id, key] of this.persisted) keys[id] = this.codec.encode(key);
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    await writeJsonAtomic(this.file, { version: 1, encoding: this.persistentKind, keys }, 0o600);
  }
}

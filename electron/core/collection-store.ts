/**
 * Folders and variables of Collections (docs/collections.md) in `collections.json`: each folder's variables,
 * empty folders, and each profile's variables. The requests are presets (preset-store.ts), which say their
 * own folder; this file keeps what belongs to the folder itself. A value holding a stored key is scrubbed
 * before it is written, as presets are.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  FolderPath,
  VariableMap,
  type CollectionsState,
  type Folder,
  type StartupProblem,
} from '../../shared/contract';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { unwritable } from './errors';
import { samePath, startsWith } from './preset-store';
import { scopeFor } from '../../shared/collections/variables';

const FORMAT = 'gateway-playground-collections';
const FileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  folders: z.array(z.object({ path: FolderPath, variables: VariableMap })),
  profileVariables: z.record(z.string(), VariableMap),
});

export class CollectionStore {
  private state: CollectionsState = { folders: [], profileVariables: {} };
  private readonly file: string;
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    private readonly secrets: () => string[],
  ) {
    this.file = path.join(dataDir, 'collections.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, FileSchema);
    if (read.value) this.state = { folders: read.value.folders, profileVariables: read.value.profileVariables };
    return read.problem ? [read.problem] : [];
  }

  /** The stored folders plus every folder a request sits in (and their parents), parents first. */
  list(requestFolders: readonly (readonly string[])[] = []): CollectionsState {
    const folders = [...this.state.folders];
    for (const full of requestFolders) {
      for (let n = 1; n <= full.length; n++) {
        const p = full.slice(0, n);
        if (!folders.some((f) => samePath(f.path, p))) folders.push({ path: p, variables: {} });
      }
    }
    return { folders, profileVariables: structuredClone(this.state.profileVariables) };
  }

  /** The variables a request in `folder` sees on `profileId`: profile first, then each folder down the path. */
  scopeFor(profileId: string | undefined, folder: readonly string[]): Record<string, string> {
    return scopeFor(this.state, profileId, folder);
  }

  saveFolder(folder: string[], variables?: Record<string, string>): Promise<void> {
    return this.change((s) => {
      const existing = s.folders.find((f) => samePath(f.path, folder));
      const next: Folder = { path: folder, variables: this.scrub(variables ?? existing?.variables ?? {}) };
      return { ...s, folders: existing ? s.folders.map((f) => (f === existing ? next : f)) : [...s.folders, next] };
    });
  }

  renameFolder(folder: string[], name: string): Promise<void> {
    const renamed = [...folder.slice(0, -1), name];
    return this.change((s) => ({
      ...s,
      folders: s.folders.map((f) =>
        startsWith(f.path, folder) ? { ...f, path: [...renamed, ...f.path.slice(folder.length)] } : f,
      ),
    }));
  }

  deleteFolder(folder: string[]): Promise<void> {
    return this.change((s) => ({ ...s, folders: s.folders.filter((f) => !startsWith(f.path, folder)) }));
  }

  setProfileVariables(profileId: string, variables: Record<string, string>): Promise<void> {
    return this.change((s) => ({
      ...s,
      profileVariables: { ...s.profileVariables, [profileId]: this.scrub(variables) },
    }));
  }

  /** Folders an import brought: added, or their variables merged into a folder of the same path. */
  mergeFolders(incoming: readonly Folder[]): Promise<void> {
    if (!incoming.length) return Promise.resolve();
    return this.change((s) => {
      const folders = [...s.folders];
      for (const f of incoming) {
        const i = folders.findIndex((x) => samePath(x.path, f.path));
        const variables = this.scrub({ ...(i >= 0 ? folders[i].variables : {}), ...f.variables });
        if (i >= 0) folders[i] = { path: f.path, variables };
        else folders.push({ path: f.path, variables });
      }
      return { ...s, folders };
    });
  }

  private scrub<T>(value: T): T {
    let text = JSON.stringify(value);
    for (const secret of this.secrets()) if (secret.length >= 8) text = text.split(secret).join('<API_KEY>');
    return JSON.parse(text) as T;
  }

  /** Written first, kept only once on disk: a failed write changes nothing. */
  private change(make: (s: CollectionsState) => CollectionsState): Promise<void> {
    return this.queued(async () => {
      const next = make(this.state);
      try {
        await writeJsonAtomic(this.file, { format: FORMAT, version: 1, ...next });
      } catch (err) {
        throw unwritable(this.file, err);
      }
      this.state = next;
    });
  }
}

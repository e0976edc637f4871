/**
 * Presets: a request (protocol, model, the whole body with unknown fields, stream) under a name. Stored and
 * exported as one versioned document; older documents are migrated on read and on import. Importing never
 * overwrites silently: a name clash is reported, and the user chooses to keep both or replace.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  PRESET_FORMAT,
  PRESET_VERSION,
  PRESETS_FILE_MAX_BYTES,
  PresetSchema,
  type PresetSaveInput,
  type Preset,
  type StartupProblem,
} from '../../shared/contract';
import { FolderPath, VariableMap, type Folder } from '../../shared/contract/collections';
import { moveAside, readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { FieldError, unwritable } from './errors';
import { RunError } from './errors';

/** Folders with their variables travel with an export, so an import keeps them (docs/collections.md). */
const FoldersSchema = z.array(z.object({ path: FolderPath, variables: VariableMap })).max(1000);
const V2 = z.object({
  format: z.literal(PRESET_FORMAT),
  version: z.literal(2),
  presets: z.array(PresetSchema),
  folders: FoldersSchema.optional(),
});
/** What a migrated document must satisfy: exactly what the store will read back from presets.json. */
const Current = z.array(PresetSchema);

/** Version 1 kept the body under `request`, had no tags, and a single `created` time. */
const V1 = z.object({
  format: z.literal(PRESET_FORMAT),
  version: z.literal(1),
  presets: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().min(1),
      protocol: z.enum(['messages', 'chat', 'responses']),
      model: z.string().optional(),
      request: z.record(z.string(), z.unknown()),
      stream: z.boolean().optional(),
      notes: z.string().optional(),
      created: z.string(),
    }),
  ),
});

const ACCEPTED =
  'Presets imports Gateway Playground preset files (what Export all saves, with "format": ' +
  `"${PRESET_FORMAT}"). To bring over one request from another tool, copy it as curl there and use ` +
  'Import from curl in a protocol tab.';

/** What another tool's export is, by its shape, so a wrong file is named rather than met with "format is null". */
function foreignKind(doc: Record<string, unknown>): string | undefined {
  const info = doc.info as { schema?: unknown; _postman_id?: unknown } | undefined;
  const schema = typeof info?.schema === 'string' ? info.schema : '';
  const postman = /schema\.getpostman\.com\/json\/collection\/v(\d+(?:\.\d+)*)/.exec(schema);
  if (postman) return `a Postman collection (v${postman[1]})`;
  if (info?._postman_id !== undefined && Array.isArray(doc.item)) return 'a Postman collection';
  if (doc._postman_variable_scope !== undefined) return 'a Postman environment';
  if (doc.brunoConfig !== undefined || (doc.version === '1' && Array.isArray(doc.items) && 'name' in doc))
    return 'a Bruno collection';
  if (doc._type === 'export' || doc.__export_format !== undefined) return 'an Insomnia export';
  if (typeof doc.openapi === 'string' || typeof doc.swagger === 'string') return 'an OpenAPI document';
  const log = doc.log as { entries?: unknown } | undefined;
  if (Array.isArray(log?.entries)) return 'a HAR file (recorded browser traffic)';
  return undefined;
}

export function migrate(doc: unknown): { presets: Preset[]; folders?: Folder[] } | { error: string } {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return { error: `The file is not a JSON object. ${ACCEPTED}` };
  const d = doc as { format?: unknown; version?: unknown };
  if (d.format !== PRESET_FORMAT) {
    const kind = foreignKind(doc as Record<string, unknown>);
    if (kind) return { error: `This looks like ${kind}; ${ACCEPTED}` };
    return {
      error:
        d.format === undefined
          ? `This is not a Gateway Playground presets file (it has no "format" field). ${ACCEPTED}`
          : `This is not a Gateway Playground presets file ("format" is ${JSON.stringify(d.format)}). ${ACCEPTED}`,
    };
  }
  if (d.version === 2) {
    const v2 = V2.safeParse(doc);
    return v2.success
      ? { presets: v2.data.presets, folders: v2.data.folders }
      : { error: `Version 2 presets file, but ${describe(v2.error)}.` };
  }
  if (d.version === 1) {
    const v1 = V1.safeParse(doc);
    if (!v1.success) return { error: `Version 1 presets file, but ${describe(v1.error)}.` };
    const migrated = v1.data.presets.map((p) => ({
      id: p.id,
      name: p.name,
      notes: p.notes,
      tags: [],
      protocol: p.protocol,
      model: p.model ?? (typeof p.request.model === 'string' ? p.request.model : undefined),
      body: p.request,
      stream: p.stream ?? p.request.stream === true,
      createdAt: p.created,
      updatedAt: p.created,
    }));
    // Version 1 had no limits on names, notes or models; the version 2 schema does, and presets.json is read
    // with it. A preset past those limits is refused here, naming the preset and field, rather than clipped:
    // clipping would silently cut the user's notes, and letting it through would make presets.json fail on
    // the next start. The user can shorten that field in the file and import again.
    const checked = Current.safeParse(migrated);
    if (!checked.success) {
      const i = checked.error.issues[0];
      const at = typeof i.path[0] === 'number' ? migrated[i.path[0]] : undefined;
      const field = i.path.slice(1).join('.') || 'the preset';
      return {
        error: `Version 1 presets file, but preset ${JSON.stringify(at?.name ?? '?')} cannot be kept as it is (${field}: ${i.message}).`,
      };
    }
    return { presets: checked.data };
  }
  return {
    error: `Unknown presets file version ${JSON.stringify(d.version ?? null)} (this app reads 1 and ${PRESET_VERSION}).`,
  };
}

function describe(error: z.ZodError): string {
  const i = error.issues[0];
  return `${i.path.join('.') || 'the document'}: ${i.message}`;
}

export class PresetStore {
  private presets: Preset[] = [];
  private readonly file: string;
  /** presets.json writes, one after another: the last list saved is the one on disk. */
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    /** Keys the vault holds: a preset must never carry one, even pasted into a body by mistake. */
    private readonly secrets: () => string[],
  ) {
    this.file = path.join(dataDir, 'presets.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, z.unknown());
    if (read.problem) return [read.problem];
    if (read.value === undefined) return [];
    const m = migrate(read.value);
    // Moved aside like any other unusable data file: starting empty while leaving it in place would let the
    // next save overwrite every preset it holds.
    if ('error' in m) return [await moveAside(this.file, `could not be used (${m.error.replace(/\.$/, '')})`)];
    const arranged = m.presets.some((p) => p.folder !== undefined);
    this.presets = arranged ? m.presets : [...m.presets].sort((a, b) => a.name.localeCompare(b.name));
    return [];
  }

  /** In the order the user arranged them (drag to reorder); a file from before folders is sorted by name once. */
  list(): Preset[] {
    return [...this.presets];
  }

  private scrub<T>(value: T): T {
    let text = JSON.stringify(value);
    for (const s of this.secrets()) if (s.length >= 8) text = text.split(s).join('<API_KEY>');
    return JSON.parse(text) as T;
  }

  async save(input: z.output<typeof PresetSaveInput>): Promise<Preset> {
    return this.change((presets) => {
      const now = new Date().toISOString();
      const existing = input.id
        ? presets.find((p) => p.id === input.id)
        : input.replace
          ? named(presets, input.name)
          : undefined;
      refuseClash(presets, input.name, existing?.id);
      const preset: Preset = this.scrub({
        id: existing?.id ?? randomUUID(),
        name: input.name,
        notes: input.notes,
        tags: input.tags,
        protocol: input.protocol,
        model: input.model ?? (typeof input.body.model === 'string' ? input.body.model : undefined),
        body: input.body,
        stream: input.stream,
        compare: input.compare,
        // Saving over a request from the composer keeps where it sits and what it expects.
        folder: input.folder ?? existing?.folder ?? [],
        expect: emptyToUndefined(input.expect ?? existing?.expect),
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
      return {
        next: existing ? presets.map((p) => (p.id === existing.id ? preset : p)) : [...presets, preset],
        result: preset,
      };
    });
  }

  private find(presets: Preset[], id: string): Preset {
    const p = presets.find((x) => x.id === id);
    if (!p) throw new Error(`No preset with id ${id}.`);
    return p;
  }

  async rename(id: string, name: string): Promise<Preset> {
    return this.change((presets) => {
      const p = { ...this.find(presets, id), name, updatedAt: new Date().toISOString() };
      refuseClash(presets, name, id);
      return { next: presets.map((x) => (x.id === id ? p : x)), result: p };
    });
  }

  async duplicate(id: string): Promise<Preset> {
    return this.change((presets) => {
      const src = this.find(presets, id);
      const now = new Date().toISOString();
      const copy: Preset = {
        ...structuredClone(src),
        id: randomUUID(),
        name: freeName(presets, `${src.name} (copy)`),
        createdAt: now,
        updatedAt: now,
      };
      return { next: [...presets, copy], result: copy };
    });
  }

  async delete(id: string): Promise<Preset> {
    return this.change((presets) => {
      const p = this.find(presets, id);
      return { next: presets.filter((x) => x.id !== id), result: p };
    });
  }

  async restore(preset: Preset): Promise<Preset> {
    return this.change((presets) => {
      const others = presets.filter((x) => x.id !== preset.id);
      // Its name may have been taken since it was deleted: undo brings it back beside that one, never as a twin.
      const back = this.scrub({ ...preset, name: freeName(others, preset.name) });
      return { next: [...others, back], result: back };
    });
  }

  /** Puts a request in a folder, before another one there or at the folder's end. */
  async move(id: string, folder: string[], before?: string): Promise<Preset> {
    return this.change((presets) => {
      const moved = { ...this.find(presets, id), folder, updatedAt: new Date().toISOString() };
      const rest = presets.filter((p) => p.id !== id);
      const at = before ? rest.findIndex((p) => p.id === before) : -1;
      // At the folder's end: after the last request already in it, or after everything.
      const last = rest.findLastIndex((p) => samePath(p.folder ?? [], folder));
      const index = at >= 0 ? at : last >= 0 ? last + 1 : rest.length;
      return { next: [...rest.slice(0, index), moved, ...rest.slice(index)], result: moved };
    });
  }

  /** Every request at or under `path` moves to the renamed folder. */
  async renameFolder(path: string[], name: string): Promise<number> {
    const renamed = [...path.slice(0, -1), name];
    return this.change((presets) => {
      let count = 0;
      const next = presets.map((p) => {
        if (!startsWith(p.folder ?? [], path)) return p;
        count++;
        return { ...p, folder: [...renamed, ...(p.folder ?? []).slice(path.length)] };
      });
      return { next: count ? next : presets, result: count };
    });
  }

  countIn(path: string[]): number {
    return this.presets.filter((p) => startsWith(p.folder ?? [], path)).length;
  }

  /** Requests from another tool's collection, each named uniquely, in the order they came. */
  async addMany(incoming: Omit<Preset, 'id' | 'createdAt' | 'updatedAt'>[]): Promise<Preset[]> {
    return this.change((presets) => {
      const now = new Date().toISOString();
      const next = [...presets];
      const added: Preset[] = [];
      for (const p of incoming) {
        const preset = this.scrub({
          ...p,
          id: randomUUID(),
          name: freeName(next, p.name),
          createdAt: now,
          updatedAt: now,
        });
        next.push(preset);
        added.push(preset);
      }
      return { next, result: added };
    });
  }

  /** `folders`: the folders' variables, kept for those the chosen requests sit in. */
  exportText(ids?: string[], folders: Folder[] = []): { text: string; count: number } {
    const chosen = ids ? this.presets.filter((p) => ids.includes(p.id)) : this.presets;
    const used = folders.filter((f) => chosen.some((p) => startsWith(p.folder ?? [], f.path)));
    const text =
      JSON.stringify(
        {
          format: PRESET_FORMAT,
          version: PRESET_VERSION,
          exportedAt: new Date().toISOString(),
          presets: chosen.map((p) => this.scrub(p)),
          ...(used.length ? { folders: used.map((f) => this.scrub(f)) } : {}),
        },
        null,
        2,
      ) + '\n';
    const bytes = Buffer.byteLength(text);
    // A file that import would refuse is a trap: say so now, while the presets can still be exported in parts.
    if (bytes > PRESETS_FILE_MAX_BYTES) {
      throw new RunError(
        'too_large',
        `These ${chosen.length} presets make a ${(bytes / 1048576).toFixed(1)} MB file, and import takes at most ${Math.floor(PRESETS_FILE_MAX_BYTES / 1048576)} MB (images inside presets count in full): export them in smaller groups.`,
      );
    }
    return { text, count: chosen.length };
  }

  async importText(
    text: string,
    onConflict: 'ask' | 'keep-both' | 'replace',
  ): Promise<{ imported: number; replaced: number; conflicts: string[]; folders: Folder[] }> {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new Error(`The file is not valid JSON (${(err as Error).message}); nothing was imported.`, {
        cause: err,
      });
    }
    const m = migrate(doc);
    if ('error' in m) throw new Error(`${m.error} Nothing was imported.`);
    return this.change((presets) => {
      // Only presets that were here before the import can clash or be replaced, each at most once: two presets
      // of the same name inside the file are both kept (the second renamed), never one replacing the other.
      const before = new Map(presets.map((p) => [p.name.toLowerCase(), p]));
      const conflicts = [...new Set(m.presets.filter((p) => before.has(p.name.toLowerCase())).map((p) => p.name))];
      if (conflicts.length && onConflict === 'ask')
        return { next: presets, result: { imported: 0, replaced: 0, conflicts, folders: [] } };
      const replacedIds = new Set<string>();
      let next = [...presets];
      let imported = 0;
      for (const incoming of m.presets) {
        const clash = before.get(incoming.name.toLowerCase());
        const p = this.scrub({ ...incoming, id: randomUUID() });
        if (clash && onConflict === 'replace' && !replacedIds.has(clash.id)) {
          next = next.map((x) => (x.id === clash.id ? { ...p, id: clash.id } : x));
          replacedIds.add(clash.id);
        } else {
          p.name = freeName(next, p.name);
          next.push(p);
          imported++;
        }
      }
      const folders = (m.folders ?? []).map((f) => this.scrub(f));
      return { next, result: { imported, replaced: replacedIds.size, conflicts, folders } };
    });
  }

  /**
   * One change at a time, in the write queue, each from the list the previous one left. The new list is written
   * first and becomes the store's list only once it is on disk: a failed write changes nothing, so the user can
   * try again without a phantom preset or a "(2)" copy appearing.
   */
  private change<T>(make: (presets: Preset[]) => { next: Preset[]; result: T }): Promise<T> {
    return this.queued(async () => {
      const { next, result } = make(this.presets);
      if (next === this.presets) return result;
      try {
        await writeJsonAtomic(this.file, { format: PRESET_FORMAT, version: PRESET_VERSION, presets: next });
      } catch (err) {
        throw unwritable(this.file, err);
      }
      this.presets = next;
      return result;
    });
  }
}

export function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((name, i) => path[i] === name);
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function emptyToUndefined<T extends object>(value: T | undefined): T | undefined {
  return value && Object.values(value).some((v) => v !== undefined) ? value : undefined;
}

/**
 * Names are unique, ignoring case and surrounding spaces, as import and duplicate already keep them: two
 * presets of one name cannot be told apart in the list or by "Load <name>". Thrown as a field error so the form
 * shows it next to the name and keeps what was typed.
 */
function refuseClash(presets: Preset[], name: string, selfId?: string): void {
  const clash = named(presets, name, selfId);
  if (clash) throw new FieldError({ name: `A preset named "${clash.name}" already exists.` }, 'name_taken');
}

function named(presets: Preset[], name: string, exceptId?: string): Preset | undefined {
  const key = name.trim().toLowerCase();
  return presets.find((p) => p.id !== exceptId && p.name.trim().toLowerCase() === key);
}

function freeName(presets: Preset[], name: string): string {
  const taken = new Set(presets.map((p) => p.name.toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`.toLowerCase())) return `${name} (${i})`;
}

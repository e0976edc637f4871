/**
 * Load runs as saved: `load-runs/<loadId>.json` holds one whole record (summary, per-request rows, the request
 * as sent with its key redacted), and `load-runs/index.json` the list. A load run is one entry, not N runs in
 * History. Bounded by count, oldest pruned first; a corrupt index is moved aside and rebuilt from the files.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { LoadRecord, LoadRecordSummary, StartupProblem } from '../../../shared/contract';
import { readJsonFile, writeFileAtomic, writeJsonAtomic, writeQueue } from '../atomic-file';

export const LOAD_STORE_VERSION = 1;
export const MAX_LOAD_RUNS = 50;

const SAFE_ID = /^load_[A-Za-z0-9-]{1,80}$/;

// The summaries are the core's own output: checked for shape at the top, trusted within.
const Entry = z.looseObject({ loadId: z.string().regex(SAFE_ID), startedAt: z.string(), summary: z.looseObject({}) });
const IndexFile = z.object({ version: z.literal(LOAD_STORE_VERSION), runs: z.array(Entry) });
const RecordFile = z.object({ version: z.literal(LOAD_STORE_VERSION), record: Entry });

export function summaryOf(record: LoadRecord): LoadRecordSummary {
  const { request: _request, rows: _rows, rateLimits: _rateLimits, ...summary } = record;
  return summary;
}

export class LoadStore {
  private runs: LoadRecordSummary[] = [];
  private readonly queue = writeQueue();
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'load-runs');
  }

  private get indexFile(): string {
    return path.join(this.dir, 'index.json');
  }

  private fileOf(loadId: string): string {
    if (!SAFE_ID.test(loadId)) throw new Error(`Not a load run id: ${loadId.slice(0, 100)}`);
    return path.join(this.dir, `${loadId}.json`);
  }

  async load(): Promise<StartupProblem[]> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const read = await readJsonFile(this.indexFile, IndexFile);
    if (read.value) {
      this.runs = read.value.runs as unknown as LoadRecordSummary[];
      return [];
    }
    if (!read.problem) return [];
    // Rebuilt from the run files: the index is only a list of what they hold.
    for (const name of await fs.readdir(this.dir)) {
      const id = name.replace(/\.json$/, '');
      if (!SAFE_ID.test(id) || !name.endsWith('.json')) continue;
      const rec = await this.get(id);
      if (rec) this.runs.push(summaryOf(rec));
    }
    this.runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    await this.queue(() => writeJsonAtomic(this.indexFile, { version: LOAD_STORE_VERSION, runs: this.runs }));
    return [read.problem];
  }

  list(): LoadRecordSummary[] {
    return [...this.runs].reverse();
  }

  async get(loadId: string): Promise<LoadRecord | undefined> {
    const read = await readJsonFile(this.fileOf(loadId), RecordFile);
    return read.value?.record as unknown as LoadRecord | undefined;
  }

  async add(record: LoadRecord): Promise<void> {
    await writeJsonAtomicCompact(this.fileOf(record.loadId), { version: LOAD_STORE_VERSION, record });
    this.runs.push(summaryOf(record));
    const pruned = this.runs.splice(0, Math.max(0, this.runs.length - MAX_LOAD_RUNS));
    await this.saveIndex();
    for (const old of pruned) await fs.rm(this.fileOf(old.loadId), { force: true });
  }

  async delete(loadId: string): Promise<boolean> {
    const at = this.runs.findIndex((r) => r.loadId === loadId);
    if (at < 0) return false;
    this.runs.splice(at, 1);
    await this.saveIndex();
    await fs.rm(this.fileOf(loadId), { force: true });
    return true;
  }

  private saveIndex(): Promise<void> {
    const runs = [...this.runs];
    return this.queue(() => writeJsonAtomic(this.indexFile, { version: LOAD_STORE_VERSION, runs }));
  }
}

/** A record holds up to 10,000 rows: written without indentation, it is a third of the size. */
function writeJsonAtomicCompact(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify(value)}\n`);
}

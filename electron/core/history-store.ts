/**
 * Every finished run, saved by the core (a renderer reload loses nothing): one compact JSONL file per run
 * (a header line with the ledger, response and result, then one line per raw event) and an index for the
 * list. Bounded by count and bytes, pruned oldest first. A corrupt index is moved aside and rebuilt from the
 * run files; an unreadable run file is skipped and reported.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  RUN_SOURCES,
  type HistorySettings,
  type HistorySummary,
  type RecordedRun,
  type RunSource,
  type StartupProblem,
} from '../../shared/contract';
import type { RawEvent } from '../../shared/protocols/types';
import { describeFsError, readJsonFile, writeFileAtomic, writeJsonAtomic, writeQueue } from './atomic-file';
import { checkOf, sourceOf } from './history-source';
import { outputText, readHeaderLine, SearchIndex, searchTextOf, wordsOf } from './history-search';
import { groupRows } from './history-groups';
import { RunError } from './errors';

export const HISTORY_VERSION = 1;
/** Events encoded between two turns of the event loop when a run is saved. */
const ENCODE_SLICE = 5_000;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { maxRuns: 500, maxBytes: 200 * 1024 * 1024 };

const Summary = z.object({
  runId: z.string(),
  startedAt: z.string(),
  protocol: z.enum(['messages', 'chat', 'responses']),
  model: z.string().optional(),
  profileName: z.string(),
  origin: z.string(),
  sessionId: z.string().optional(),
  verdict: z.enum(['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout', 'cancelled']),
  warnings: z.number().optional(),
  status: z.number().optional(),
  ttftMs: z.number().optional(),
  totalMs: z.number(),
  outputTokens: z.number().optional(),
  events: z.number(),
  bytes: z.number(),
  preview: z.string(),
  source: z.enum(RUN_SOURCES).optional(),
  check: z.object({ id: z.string(), label: z.string(), unit: z.string() }).optional(),
  name: z.string().optional(),
  pinned: z.boolean().optional(),
  // Kept by an index from before search read the whole output (its first 5,000 characters): ignored, dropped on
  // the next write.
  searchText: z.string().optional(),
});
const IndexFile = z.object({ version: z.literal(HISTORY_VERSION), runs: z.array(Summary) });

/** A list entry as the index keeps it: the summary alone, so 10,000 runs make an index of a few MB. */
type IndexEntry = HistorySummary;
const SettingsFile = z.object({
  version: z.literal(1),
  maxRuns: z.number().int().min(1),
  maxBytes: z.number().int().min(1),
});

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

function summarize(run: RecordedRun, bytes: number): IndexEntry {
  const text = outputText(run.result);
  const check = checkOf(run);
  return {
    runId: run.ledger.runId,
    startedAt: run.ledger.startedAt,
    protocol: run.ledger.protocol,
    model: run.ledger.model,
    profileName: run.ledger.profileName,
    origin: run.origin,
    ...(run.ledger.sessionId ? { sessionId: run.ledger.sessionId } : {}),
    verdict: run.result.verdict,
    warnings: run.result.warnings.length,
    status: run.result.metrics.status,
    ttftMs: run.result.metrics.ttftMs,
    totalMs: run.result.metrics.totalMs,
    outputTokens: run.result.metrics.usage.output,
    events: run.events.length,
    bytes,
    preview: text.slice(0, 160),
    source: sourceOf(run),
    ...(check ? { check } : {}),
  };
}

/**
 * A run as its history file: a header line, then one compact array line per event (a 100k-event stream stays a
 * fraction of its JSON-object size). Encoded in slices with the event loop let through between them: a
 * 100k-event run in one go held the main process, and every window's IPC, for about a tenth of a second
 * right after the run ended.
 */
export async function encodeRun(run: RecordedRun): Promise<string> {
  const lines = [
    JSON.stringify({
      version: HISTORY_VERSION,
      ledger: run.ledger,
      response: run.response,
      result: run.result,
      origin: run.origin,
      ...(run.source ? { source: run.source } : {}),
      ...(run.check ? { check: run.check } : {}),
    }),
  ];
  for (let i = 0; i < run.events.length; i++) {
    const e = run.events[i];
    lines.push(JSON.stringify([e.seq, e.t, e.type, e.event ?? null, e.data, e.size]));
    if (i % ENCODE_SLICE === ENCODE_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return lines.join('\n') + '\n';
}

export interface HistoryListFilter {
  protocol?: string;
  model?: string;
  verdict?: string;
  withWarnings?: boolean;
  text?: string;
  source?: RunSource | 'all';
  grouped?: boolean;
  expanded?: string[];
  limit: number;
  offset: number;
}

export class HistoryStore {
  private runs: IndexEntry[] = [];
  private settings: HistorySettings = { ...DEFAULT_HISTORY_SETTINGS };
  private readonly dir: string;
  private readonly indexFile: string;
  private readonly settingsFile: string;
  /** Writes go one after another so the index never races itself. */
  private readonly enqueue = writeQueue();
  /** Runs that could not be saved since the last save that worked. */
  private unsaved = 0;
  /** What the text filter reads, per run (history-search.ts): read on the first search, so opening never waits. */
  private readonly search: SearchIndex;

  constructor(
    dataDir: string,
    /**
     * The core's problem list (what app:info reports): a run that cannot be saved is said there, since it ends
     * long after the call that started it and has no caller to fail.
     */
    private readonly problems: StartupProblem[] = [],
  ) {
    this.dir = path.join(dataDir, 'history');
    this.indexFile = path.join(this.dir, 'index.json');
    this.settingsFile = path.join(this.dir, 'settings.json');
    this.search = new SearchIndex(this.dir, (runId) => this.textFromFile(runId));
  }

  async load(): Promise<StartupProblem[]> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const problems: StartupProblem[] = [];
    const settings = await readJsonFile(this.settingsFile, SettingsFile);
    if (settings.problem) problems.push(settings.problem);
    if (settings.value) this.settings = { maxRuns: settings.value.maxRuns, maxBytes: settings.value.maxBytes };
    const index = await readJsonFile(this.indexFile, IndexFile);
    if (index.value) {
      // An index from before sources were kept: the origin says enough (history-source.ts).
      this.runs = index.value.runs.map(({ searchText: _old, ...summary }) => ({
        ...summary,
        source: sourceOf(summary),
      }));
      return problems;
    }
    if (index.problem) problems.push(index.problem);
    const texts = new Map<string, string>();
    this.runs = await this.rebuild(problems, texts);
    if (this.runs.length || index.problem) {
      await this.saveIndex();
      await this.search.replace(texts);
    }
    return problems;
  }

  /** A run's search text made from its file's header; a file that cannot be read is searched by its summary. */
  private async textFromFile(runId: string): Promise<string> {
    const r = this.runs.find((x) => x.runId === runId);
    try {
      const header = JSON.parse(await readHeaderLine(this.runFile(runId))) as Pick<
        RecordedRun,
        'ledger' | 'result' | 'check'
      >;
      if (header.ledger && header.result?.transcript) return searchTextOf(header);
    } catch {
      // Read by its summary below.
    }
    return wordsOf([r?.preview ?? '', r?.model ?? '', r?.profileName ?? '']);
  }

  private async rebuild(problems: StartupProblem[], texts: Map<string, string>): Promise<IndexEntry[]> {
    const out: IndexEntry[] = [];
    for (const f of await fs.readdir(this.dir)) {
      if (!f.endsWith('.jsonl')) continue;
      try {
        const run = await this.readRun(path.join(this.dir, f));
        const { size } = await fs.stat(path.join(this.dir, f));
        out.push(summarize(run, size));
        texts.set(run.ledger.runId, searchTextOf(run));
      } catch (err) {
        problems.push({
          file: path.join(this.dir, f),
          message: `history/${f} could not be read (${(err as Error).message}); it was left out.`,
        });
      }
    }
    return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  private runFile(runId: string): string {
    if (!SAFE_ID.test(runId)) throw new Error(`Not a run id: ${runId}`);
    return path.join(this.dir, `${runId}.jsonl`);
  }

  private async readRun(file: string): Promise<RecordedRun> {
    const text = await fs.readFile(file, 'utf8');
    const lines = text.split('\n');
    const header = JSON.parse(lines[0]) as { version: number } & Omit<RecordedRun, 'events'>;
    if (header.version !== HISTORY_VERSION || !header.ledger || !header.result) throw new Error('unknown format');
    const events: RawEvent[] = [];
    for (let i = 1; i < lines.length; i++) {
      if (!lines[i]) continue;
      const [seq, t, type, event, data, size] = JSON.parse(lines[i]) as [
        number,
        number,
        string,
        string | null,
        string,
        number,
      ];
      const e: RawEvent = { seq, t, type, data, size };
      if (event !== null) e.event = event;
      events.push(e);
    }
    const { ledger, response, result, origin, source, check } = header;
    return { ledger, response, result, origin, ...(source ? { source } : {}), ...(check ? { check } : {}), events };
  }

  /** Never rejects: a save that fails is reported in the problem list, and the run itself is unaffected. */
  add(run: RecordedRun): Promise<void> {
    return this.enqueue(async () => {
      try {
        const text = await encodeRun(run);
        await writeFileAtomic(this.runFile(run.ledger.runId), text);
        const before = this.runs.find((r) => r.runId === run.ledger.runId);
        const summary = summarize(run, Buffer.byteLength(text));
        if (before?.name) summary.name = before.name;
        if (before?.pinned) summary.pinned = true;
        this.runs = [summary, ...this.runs.filter((r) => r.runId !== run.ledger.runId)];
        await this.search.put(summary.runId, searchTextOf(run));
        await this.prune();
        await this.saveIndex();
        this.unsaved = 0;
        const at = this.problems.findIndex((p) => p.file === this.dir);
        if (at >= 0) this.problems.splice(at, 1);
      } catch (err) {
        this.unsaved++;
        this.reportUnsaved(err);
      }
    });
  }

  /** One entry for history in the problem list, carrying the latest failure; a save that works removes it. */
  private reportUnsaved(err: unknown): void {
    const at = this.problems.findIndex((p) => p.file === this.dir);
    const runs = this.unsaved === 1 ? 'The last run was' : `The last ${this.unsaved} runs were`;
    const problem: StartupProblem = {
      file: this.dir,
      message: `${runs} not saved to history: ${this.dir} could not be written (${describeFsError(err)}). Check that the data folder is writable and has free space; runs are kept again once it is.`,
    };
    if (at >= 0) this.problems[at] = problem;
    else this.problems.push(problem);
  }

  /** Resolves once every save queued so far is on disk and in the list. */
  settled(): Promise<void> {
    return this.enqueue.settled();
  }

  /**
   * The model filter is typed free text: any part of the id, in any case. The text filter finds every word
   * typed, in any order, anywhere in the run's output, its request (history-search.ts), model, profile or name;
   * the first search reads the search file, later ones read memory. Pinned runs come first; a grouped list shows
   * a check as one row (history-groups.ts).
   */
  async list(filter: HistoryListFilter): Promise<{ runs: HistorySummary[]; total: number; bytes: number }> {
    const model = filter.model?.trim().toLowerCase();
    const words = filter.text?.trim().toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const source = filter.source === 'all' ? undefined : filter.source;
    const texts = words.length ? await this.search.all(() => this.runs.map((r) => r.runId)) : undefined;
    const pinned: IndexEntry[] = [];
    const rest: IndexEntry[] = [];
    for (const r of this.runs) {
      if (source && r.source !== source) continue;
      if (filter.protocol && r.protocol !== filter.protocol) continue;
      if (filter.verdict && r.verdict !== filter.verdict) continue;
      if (filter.withWarnings !== undefined && (r.warnings ?? 0) > 0 !== filter.withWarnings) continue;
      if (model && !(r.model ?? '').toLowerCase().includes(model)) continue;
      if (texts) {
        const haystack = texts.get(r.runId) ?? wordsOf([r.preview, r.model ?? '', r.profileName]);
        const name = r.name?.toLowerCase() ?? '';
        if (!words.every((w) => haystack.includes(w) || name.includes(w))) continue;
      }
      (r.pinned ? pinned : rest).push(r);
    }
    const matched = pinned.length ? [...pinned, ...rest] : rest;
    const rows = filter.grouped ? groupRows(matched, new Set(filter.expanded)) : matched;
    return {
      runs: rows.slice(filter.offset, filter.offset + filter.limit),
      total: rows.length,
      bytes: this.runs.reduce((a, r) => a + r.bytes, 0),
    };
  }

  async get(runId: string): Promise<RecordedRun | undefined> {
    if (!this.runs.some((r) => r.runId === runId)) return undefined;
    return this.readRun(this.runFile(runId));
  }

  /** A name the user gave the run ("" removes it); the summary as it now is. */
  rename(runId: string, name: string): Promise<HistorySummary> {
    return this.mark(runId, (r) => {
      if (name) r.name = name;
      else delete r.name;
    });
  }

  /** Pinned runs are listed first and survive Clear and trimming. */
  pin(runId: string, pinned: boolean): Promise<HistorySummary> {
    return this.mark(runId, (r) => {
      if (pinned) r.pinned = true;
      else delete r.pinned;
    });
  }

  private mark(runId: string, change: (r: IndexEntry) => void): Promise<HistorySummary> {
    return this.enqueue(async () => {
      const at = this.runs.findIndex((r) => r.runId === runId);
      if (at < 0) throw new RunError('not_found', `Run ${runId} is not in history.`);
      const next = { ...this.runs[at] };
      change(next);
      this.runs = this.runs.map((r, i) => (i === at ? next : r));
      await this.saveIndex();
      return { ...next };
    });
  }

  delete(runId: string): Promise<boolean> {
    return this.enqueue(async () => {
      if (!this.runs.some((r) => r.runId === runId)) return false;
      this.runs = this.runs.filter((r) => r.runId !== runId);
      this.search.remove(runId);
      await fs.rm(this.runFile(runId), { force: true });
      await this.saveIndex();
      return true;
    });
  }

  /** Every run but the pinned ones; how many went. */
  clear(): Promise<number> {
    return this.enqueue(async () => {
      const gone = this.runs.filter((r) => !r.pinned);
      for (const r of gone) {
        await fs.rm(this.runFile(r.runId), { force: true });
        this.search.remove(r.runId);
      }
      this.runs = this.runs.filter((r) => r.pinned);
      await this.saveIndex();
      await this.search.compact(this.runs.map((r) => r.runId)).catch(() => undefined);
      return gone.length;
    });
  }

  getSettings(): HistorySettings {
    return { ...this.settings };
  }

  updateSettings(next: Partial<HistorySettings>): Promise<HistorySettings> {
    return this.enqueue(async () => {
      this.settings = {
        ...this.settings,
        ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)),
      };
      await writeJsonAtomic(this.settingsFile, { version: 1, ...this.settings });
      await this.prune();
      await this.saveIndex();
      return this.getSettings();
    });
  }

  /** Oldest first until both caps hold; the newest run and pinned runs are always kept. */
  private async prune(): Promise<void> {
    let bytes = this.runs.reduce((a, r) => a + r.bytes, 0);
    let count = this.runs.length;
    const gone = new Set<string>();
    for (
      let i = this.runs.length - 1;
      i > 0 && (count > this.settings.maxRuns || bytes > this.settings.maxBytes);
      i--
    ) {
      const r = this.runs[i];
      if (r.pinned) continue;
      gone.add(r.runId);
      count--;
      bytes -= r.bytes;
    }
    if (gone.size === 0) return;
    this.runs = this.runs.filter((r) => !gone.has(r.runId));
    for (const runId of gone) {
      this.search.remove(runId);
      await fs.rm(this.runFile(runId), { force: true });
    }
    await this.search.compact(this.runs.map((r) => r.runId)).catch(() => undefined);
  }

  private saveIndex(): Promise<void> {
    return writeJsonAtomic(this.indexFile, { version: HISTORY_VERSION, runs: this.runs });
  }
}

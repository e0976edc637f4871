/**
 * Every finished run, saved by the core (a renderer reload loses nothing): one compact JSONL file per run
 * (a header line with the ledger, response and result, then one line per raw event) and an index for the
 * list. Bounded by count and bytes, pruned oldest first. A corrupt index is moved aside and rebuilt from the
 * run files; an unreadable run file is skipped and reported.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { HistorySettings, HistorySummary, RecordedRun, RunResult, StartupProblem } from '../../shared/contract';
import type { RawEvent } from '../../shared/protocols/types';
import { describeFsError, readJsonFile, writeFileAtomic, writeJsonAtomic, writeQueue } from './atomic-file';

export const HISTORY_VERSION = 1;
/** Events encoded between two turns of the event loop when a run is saved. */
const ENCODE_SLICE = 5_000;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { maxRuns: 500, maxBytes: 200 * 1024 * 1024 };
/** Run files whose header is read at once while the search text of every run is loaded. */
const READ_PARALLEL = 16;
/** The header is read in chunks of this size until its line ends. */
const HEADER_CHUNK = 64 * 1024;

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

/** The output as one line of text (or, with none, why the run ended): what the preview shows and search reads. */
function outputText(result: RunResult): string {
  const text = result.transcript.blocks
    .map((b) =>
      b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `${b.name}(${b.argsText})` : '',
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || result.reason;
}

/** What the text filter reads for a run: its whole output, its model and its profile, in lower case. */
const searchable = (r: IndexEntry, output: string) => `${output} ${r.model ?? ''} ${r.profileName}`.toLowerCase();

/** The first line of a run file (its header), read in chunks: the events after it can be many megabytes. */
async function readHeaderLine(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let pos = 0; ; pos += HEADER_CHUNK) {
      const buf = Buffer.alloc(HEADER_CHUNK);
      const { bytesRead } = await handle.read(buf, 0, HEADER_CHUNK, pos);
      const nl = buf.subarray(0, bytesRead).indexOf(10);
      chunks.push(buf.subarray(0, nl >= 0 ? nl : bytesRead));
      if (nl >= 0 || bytesRead < HEADER_CHUNK) return Buffer.concat(chunks).toString('utf8');
    }
  } finally {
    await handle.close();
  }
}

function summarize(run: RecordedRun, bytes: number): IndexEntry {
  const text = outputText(run.result);
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
  /**
   * What the text filter reads, per run (see `searchable`): filled from the run files on the first search, and by
   * every save after it. Undefined until then, so opening History never waits for it.
   */
  private texts: Map<string, string> | undefined;
  private loadingTexts: Promise<Map<string, string>> | undefined;

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
  }

  async load(): Promise<StartupProblem[]> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const problems: StartupProblem[] = [];
    const settings = await readJsonFile(this.settingsFile, SettingsFile);
    if (settings.problem) problems.push(settings.problem);
    if (settings.value) this.settings = { maxRuns: settings.value.maxRuns, maxBytes: settings.value.maxBytes };
    const index = await readJsonFile(this.indexFile, IndexFile);
    if (index.value) {
      this.runs = index.value.runs.map(({ searchText: _old, ...summary }) => summary);
      return problems;
    }
    if (index.problem) {
      problems.push(index.problem);
      this.runs = await this.rebuild(problems);
      await this.saveIndex();
    } else {
      this.runs = await this.rebuild(problems);
      if (this.runs.length) await this.saveIndex();
    }
    return problems;
  }

  /**
   * Every run's searchable text, read from the run files' header lines the first time a search needs it (a few
   * at a time); a file that cannot be read is searched by its preview.
   */
  private searchTexts(): Promise<Map<string, string>> {
    if (this.texts) return Promise.resolve(this.texts);
    this.loadingTexts ??= (async () => {
      const texts = new Map<string, string>();
      const runs = [...this.runs];
      for (let i = 0; i < runs.length; i += READ_PARALLEL) {
        await Promise.all(
          runs.slice(i, i + READ_PARALLEL).map(async (r) => {
            try {
              const header = JSON.parse(await readHeaderLine(this.runFile(r.runId))) as { result?: RunResult };
              texts.set(r.runId, searchable(r, header.result?.transcript ? outputText(header.result) : r.preview));
            } catch {
              texts.set(r.runId, searchable(r, r.preview));
            }
          }),
        );
      }
      // Runs saved while this was reading put their own text in `texts` once it exists; until then, here.
      for (const r of this.runs) if (!texts.has(r.runId)) texts.set(r.runId, searchable(r, r.preview));
      this.texts = texts;
      return texts;
    })();
    return this.loadingTexts;
  }

  private async rebuild(problems: StartupProblem[]): Promise<IndexEntry[]> {
    const out: IndexEntry[] = [];
    for (const f of await fs.readdir(this.dir)) {
      if (!f.endsWith('.jsonl')) continue;
      try {
        const run = await this.readRun(path.join(this.dir, f));
        const { size } = await fs.stat(path.join(this.dir, f));
        out.push(summarize(run, size));
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
    return { ledger: header.ledger, response: header.response, result: header.result, origin: header.origin, events };
  }

  /** Never rejects: a save that fails is reported in the problem list, and the run itself is unaffected. */
  add(run: RecordedRun): Promise<void> {
    return this.enqueue(async () => {
      try {
        const text = await encodeRun(run);
        await writeFileAtomic(this.runFile(run.ledger.runId), text);
        const summary = summarize(run, Buffer.byteLength(text));
        this.runs = [summary, ...this.runs.filter((r) => r.runId !== run.ledger.runId)];
        const found = searchable(summary, outputText(run.result));
        if (this.texts) this.texts.set(summary.runId, found);
        else void this.loadingTexts?.then((texts) => texts.set(summary.runId, found));
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
   * typed, in any order, anywhere in the whole output, the model or the profile name; the first search reads
   * every run's output from its file (see `searchTexts`), later ones read memory.
   */
  async list(filter: HistoryListFilter): Promise<{ runs: HistorySummary[]; total: number; bytes: number }> {
    const model = filter.model?.trim().toLowerCase();
    const words = filter.text?.trim().toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const texts = words.length ? await this.searchTexts() : undefined;
    const matched = this.runs.filter((r) => {
      if (filter.protocol && r.protocol !== filter.protocol) return false;
      if (filter.verdict && r.verdict !== filter.verdict) return false;
      if (filter.withWarnings !== undefined && (r.warnings ?? 0) > 0 !== filter.withWarnings) return false;
      if (model && !(r.model ?? '').toLowerCase().includes(model)) return false;
      if (!texts) return true;
      const haystack = texts.get(r.runId) ?? searchable(r, r.preview);
      return words.every((w) => haystack.includes(w));
    });
    return {
      runs: matched.slice(filter.offset, filter.offset + filter.limit),
      total: matched.length,
      bytes: this.runs.reduce((a, r) => a + r.bytes, 0),
    };
  }

  async get(runId: string): Promise<RecordedRun | undefined> {
    if (!this.runs.some((r) => r.runId === runId)) return undefined;
    return this.readRun(this.runFile(runId));
  }

  delete(runId: string): Promise<boolean> {
    return this.enqueue(async () => {
      if (!this.runs.some((r) => r.runId === runId)) return false;
      this.runs = this.runs.filter((r) => r.runId !== runId);
      this.texts?.delete(runId);
      await fs.rm(this.runFile(runId), { force: true });
      await this.saveIndex();
      return true;
    });
  }

  clear(): Promise<number> {
    return this.enqueue(async () => {
      const n = this.runs.length;
      for (const r of this.runs) await fs.rm(this.runFile(r.runId), { force: true });
      this.runs = [];
      this.texts?.clear();
      await this.saveIndex();
      return n;
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

  /** Oldest first until both caps hold; the newest run is always kept. */
  private async prune(): Promise<void> {
    let bytes = this.runs.reduce((a, r) => a + r.bytes, 0);
    while (this.runs.length > 1 && (this.runs.length > this.settings.maxRuns || bytes > this.settings.maxBytes)) {
      const oldest = this.runs.pop()!;
      bytes -= oldest.bytes;
      this.texts?.delete(oldest.runId);
      await fs.rm(this.runFile(oldest.runId), { force: true });
    }
  }

  private saveIndex(): Promise<void> {
    return writeJsonAtomic(this.indexFile, { version: HISTORY_VERSION, runs: this.runs });
  }
}

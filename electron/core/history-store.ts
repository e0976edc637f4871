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
/**
 * How much of each run's output the text filter searches; the History search box says so (keep its
 * placeholder in HistoryTab.tsx in step). The index keeps this much per run and is rewritten after every
 * run, so it is bounded: 500 runs stay near 2.5 MB.
 */
export const SEARCH_CHARS = 5_000;

const Summary = z.object({
  runId: z.string(),
  startedAt: z.string(),
  protocol: z.enum(['messages', 'chat', 'responses']),
  model: z.string().optional(),
  profileName: z.string(),
  origin: z.string(),
  verdict: z.enum(['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout', 'cancelled']),
  status: z.number().optional(),
  ttftMs: z.number().optional(),
  totalMs: z.number(),
  outputTokens: z.number().optional(),
  events: z.number(),
  bytes: z.number(),
  preview: z.string(),
  // Absent in an index written before search looked past the preview: filled in from the run files after load.
  searchText: z.string().optional(),
});
const IndexFile = z.object({ version: z.literal(HISTORY_VERSION), runs: z.array(Summary) });

/** A list entry as the index keeps it: the summary, plus the start of the output for the text filter (never sent in a list). */
type IndexEntry = HistorySummary & { searchText?: string };
const SettingsFile = z.object({ version: z.literal(1), maxRuns: z.number().int().min(1), maxBytes: z.number().int().min(1) });

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The output as one line of text (or, with none, why the run ended): what the preview shows and search reads. */
function outputText(result: RunResult): string {
  const text = result.transcript.blocks
    .map((b) => (b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `${b.name}(${b.argsText})` : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || result.reason;
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
    verdict: run.result.verdict,
    status: run.result.metrics.status,
    ttftMs: run.result.metrics.ttftMs,
    totalMs: run.result.metrics.totalMs,
    outputTokens: run.result.metrics.usage.output,
    events: run.events.length,
    bytes,
    preview: text.slice(0, 160),
    searchText: text.slice(0, SEARCH_CHARS),
  };
}

/**
 * A run as its history file: a header line, then one compact array line per event (a 100k-event stream stays a
 * fraction of its JSON-object size). Encoded in slices with the event loop let through between them: a
 * 100k-event run in one go held the main process, and every window's IPC, for about a tenth of a second
 * right after the run ended.
 */
export async function encodeRun(run: RecordedRun): Promise<string> {
  const lines = [JSON.stringify({ version: HISTORY_VERSION, ledger: run.ledger, response: run.response, result: run.result, origin: run.origin })];
  for (let i = 0; i < run.events.length; i++) {
    const e = run.events[i];
    lines.push(JSON.stringify([e.seq, e.t, e.type, e.event ?? null, e.data, e.size]));
    if (i % ENCODE_SLICE === ENCODE_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return lines.join('\n') + '\n';
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
    await fs.mkdir(this.dir, { recursive: true });
    const problems: StartupProblem[] = [];
    const settings = await readJsonFile(this.settingsFile, SettingsFile);
    if (settings.problem) problems.push(settings.problem);
    if (settings.value) this.settings = { maxRuns: settings.value.maxRuns, maxBytes: settings.value.maxBytes };
    const index = await readJsonFile(this.indexFile, IndexFile);
    if (index.value) {
      this.runs = index.value.runs;
      if (this.runs.some((r) => r.searchText === undefined)) void this.enqueue(() => this.backfillSearchText());
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
   * An index from before searchable text was kept: read it from each run file's header line, in the write
   * queue so start-up does not wait. Until then (or for a file that cannot be read) search reads the preview.
   */
  private async backfillSearchText(): Promise<void> {
    let filled = 0;
    for (const r of this.runs) {
      if (r.searchText !== undefined) continue;
      try {
        const text = await fs.readFile(this.runFile(r.runId), 'utf8');
        const nl = text.indexOf('\n');
        const header = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as { result?: RunResult };
        if (!header.result?.transcript) continue;
        r.searchText = outputText(header.result).slice(0, SEARCH_CHARS);
        filled++;
      } catch {
        // Left to the preview: the run itself is reported when it is opened.
      }
    }
    if (filled) await this.saveIndex();
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
        problems.push({ file: path.join(this.dir, f), message: `history/${f} could not be read (${(err as Error).message}); it was left out.` });
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
      const [seq, t, type, event, data, size] = JSON.parse(lines[i]) as [number, number, string, string | null, string, number];
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
        this.runs = [summarize(run, Buffer.byteLength(text)), ...this.runs.filter((r) => r.runId !== run.ledger.runId)];
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
   * typed, in any order, within the first SEARCH_CHARS characters of the output, the model or the profile name.
   */
  list(filter: { protocol?: string; model?: string; verdict?: string; text?: string; limit: number; offset: number }): { runs: HistorySummary[]; total: number; bytes: number } {
    const model = filter.model?.trim().toLowerCase();
    const words = filter.text?.trim().toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const matched = this.runs.filter((r) => {
      if (filter.protocol && r.protocol !== filter.protocol) return false;
      if (filter.verdict && r.verdict !== filter.verdict) return false;
      if (model && !(r.model ?? '').toLowerCase().includes(model)) return false;
      if (!words.length) return true;
      const haystack = `${r.searchText ?? r.preview} ${r.model ?? ''} ${r.profileName}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
    return {
      runs: matched.slice(filter.offset, filter.offset + filter.limit).map(({ searchText: _searchText, ...summary }) => summary),
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
      await this.saveIndex();
      return n;
    });
  }

  getSettings(): HistorySettings {
    return { ...this.settings };
  }

  updateSettings(next: Partial<HistorySettings>): Promise<HistorySettings> {
    return this.enqueue(async () => {
      this.settings = { ...this.settings, ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) };
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
      await fs.rm(this.runFile(oldest.runId), { force: true });
    }
  }

  private saveIndex(): Promise<void> {
    return writeJsonAtomic(this.indexFile, { version: HISTORY_VERSION, runs: this.runs });
  }

}

/**
 * Every finished run, saved by the core (a renderer reload loses nothing): one compact JSONL file per run
 * (a header line with the ledger, response and result, then one line per raw event) and an index for the
 * list. Bounded by count and bytes, pruned oldest first. A corrupt index is moved aside and rebuilt from the
 * run files; an unreadable run file is skipped and reported.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { HistorySettings, HistorySummary, RecordedRun, StartupProblem } from '../../shared/contract';
import type { RawEvent } from '../../shared/protocols/types';
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from './atomic-file';

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
  verdict: z.enum(['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout', 'cancelled']),
  status: z.number().optional(),
  ttftMs: z.number().optional(),
  totalMs: z.number(),
  outputTokens: z.number().optional(),
  events: z.number(),
  bytes: z.number(),
  preview: z.string(),
});
const IndexFile = z.object({ version: z.literal(HISTORY_VERSION), runs: z.array(Summary) });
const SettingsFile = z.object({ version: z.literal(1), maxRuns: z.number().int().min(1), maxBytes: z.number().int().min(1) });

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

function summarize(run: RecordedRun, bytes: number): HistorySummary {
  const text = run.result.transcript.blocks
    .map((b) => (b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `${b.name}(${b.argsText})` : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
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
    preview: (text || run.result.reason).slice(0, 160),
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
  private runs: HistorySummary[] = [];
  private settings: HistorySettings = { ...DEFAULT_HISTORY_SETTINGS };
  private readonly dir: string;
  private readonly indexFile: string;
  private readonly settingsFile: string;
  /** Writes go one after another so the index never races itself. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
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

  private async rebuild(problems: StartupProblem[]): Promise<HistorySummary[]> {
    const out: HistorySummary[] = [];
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

  add(run: RecordedRun): Promise<void> {
    return this.enqueue(async () => {
      const text = await encodeRun(run);
      await writeFileAtomic(this.runFile(run.ledger.runId), text);
      this.runs = [summarize(run, Buffer.byteLength(text)), ...this.runs.filter((r) => r.runId !== run.ledger.runId)];
      await this.prune();
      await this.saveIndex();
    });
  }

  /** Resolves once every save queued so far is on disk and in the list. */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  list(filter: { protocol?: string; model?: string; verdict?: string; text?: string; limit: number; offset: number }): { runs: HistorySummary[]; total: number; bytes: number } {
    const text = filter.text?.toLowerCase();
    const matched = this.runs.filter(
      (r) =>
        (!filter.protocol || r.protocol === filter.protocol) &&
        (!filter.model || r.model === filter.model) &&
        (!filter.verdict || r.verdict === filter.verdict) &&
        (!text || `${r.preview} ${r.model ?? ''} ${r.profileName}`.toLowerCase().includes(text)),
    );
    return { runs: matched.slice(filter.offset, filter.offset + filter.limit), total: matched.length, bytes: this.runs.reduce((a, r) => a + r.bytes, 0) };
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

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

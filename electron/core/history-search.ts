/**
 * What History's search reads, per run: the words of its whole output and of its whole request (every prompt,
 * system text and tool result in the body), its model, profile and check, lower-cased and each word once. Kept
 * in memory once a search needs it, and on disk beside the index (`search.jsonl`, one line per run appended as
 * runs are saved), so the first search reads one file instead of every run's (docs/architecture.md §7).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RecordedRun, RunResult } from '../../shared/contract';
import { writeFileAtomic } from './atomic-file';

/** A token longer than this is no word anyone types (base64 of an image, a signature, encrypted reasoning). */
const MAX_WORD = 200;
/** The most text one run keeps for search: a huge request is searched by its first this-many characters of words. */
const MAX_TEXT = 512 * 1024;
/** Deleted runs' lines in the search file before it is written again without them (and more than live ones). */
const STALE_COMPACT = 200;
/** Run files whose header is read at once while an older run's text is made for the first time. */
const READ_PARALLEL = 16;

/** The output as one line of text (or, with none, why the run ended): what the preview shows and search reads. */
export function outputText(result: RunResult): string {
  const text = result.transcript.blocks
    .map((b) =>
      b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `${b.name}(${b.argsText})` : '',
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || result.reason;
}

/** Every string value in the request body, in order: the prompts, system text, tool results and tool schemas. */
function requestStrings(body: string, out: string[]): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    out.push(body);
    return;
  }
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
}

/**
 * The words of `texts`, lower-cased, each once, joined by spaces. A typed word (never holding a space) is found in
 * this exactly when it is found in the texts themselves, and a long output that repeats itself shrinks to its
 * vocabulary.
 */
export function wordsOf(texts: string[]): string {
  const seen = new Set<string>();
  let length = 0;
  for (const text of texts) {
    for (const word of text.toLowerCase().split(/\s+/)) {
      if (!word || word.length > MAX_WORD || seen.has(word)) continue;
      if (length + word.length + 1 > MAX_TEXT) return [...seen].join(' ');
      seen.add(word);
      length += word.length + 1;
    }
  }
  return [...seen].join(' ');
}

/** What search reads for a run (see the file's comment). */
export function searchTextOf(run: Pick<RecordedRun, 'ledger' | 'result' | 'check'>): string {
  const texts = [outputText(run.result), run.ledger.model ?? '', run.ledger.profileName, run.check?.label ?? ''];
  requestStrings(run.ledger.body, texts);
  return wordsOf(texts);
}

/** The first line of a run file (its header), read in chunks: the events after it can be many megabytes. */
export async function readHeaderLine(file: string, chunk = 64 * 1024): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let pos = 0; ; pos += chunk) {
      const buf = Buffer.alloc(chunk);
      const { bytesRead } = await handle.read(buf, 0, chunk, pos);
      const nl = buf.subarray(0, bytesRead).indexOf(10);
      chunks.push(buf.subarray(0, nl >= 0 ? nl : bytesRead));
      if (nl >= 0 || bytesRead < chunk) return Buffer.concat(chunks).toString('utf8');
    }
  } finally {
    await handle.close();
  }
}

/**
 * The search texts of every run, by run id. `search.jsonl` holds `[runId, text]` lines, the last line of an id
 * winning; lines of deleted runs are dropped when it is written whole again (when they outnumber the live ones).
 */
export class SearchIndex {
  private texts: Map<string, string> | undefined;
  private loading: Promise<Map<string, string>> | undefined;
  private readonly file: string;

  constructor(
    dir: string,
    /** A run's text made from its file: for runs saved before the search file existed. */
    private readonly fromRunFile: (runId: string) => Promise<string>,
  ) {
    this.file = path.join(dir, 'search.jsonl');
  }

  /** Every live run's text; the first call reads the search file (and the files of runs it lacks). */
  all(liveIds: () => string[]): Promise<Map<string, string>> {
    if (this.texts) return Promise.resolve(this.texts);
    this.loading ??= this.read(liveIds);
    return this.loading;
  }

  private async read(liveIds: () => string[]): Promise<Map<string, string>> {
    const stored = new Map<string, string>();
    let lines = 0;
    const raw = await fs.readFile(this.file, 'utf8').catch(() => '');
    for (const line of raw.split('\n')) {
      if (!line) continue;
      lines++;
      try {
        const [id, text] = JSON.parse(line) as [unknown, unknown];
        if (typeof id === 'string' && typeof text === 'string') stored.set(id, text);
      } catch {
        // A line cut short by a crash: that run's text is made again from its file below.
      }
    }
    const ids = liveIds();
    const texts = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const text = stored.get(id);
      if (text === undefined) missing.push(id);
      else texts.set(id, text);
    }
    for (let i = 0; i < missing.length; i += READ_PARALLEL) {
      await Promise.all(
        missing.slice(i, i + READ_PARALLEL).map(async (id) => texts.set(id, await this.fromRunFile(id))),
      );
    }
    // Runs saved while this was reading put their text in here (see put).
    for (const [id, text] of this.pending) texts.set(id, text);
    this.pending.clear();
    this.texts = texts;
    if (missing.length || lines > 2 * texts.size + 100) await this.writeWhole().catch(() => undefined);
    return texts;
  }

  /** Texts of runs saved while the file was being read. */
  private readonly pending = new Map<string, string>();

  /** A saved run's text: appended to the file, and kept in memory once texts are. */
  async put(runId: string, text: string): Promise<void> {
    if (this.texts) this.texts.set(runId, text);
    else if (this.loading) this.pending.set(runId, text);
    await fs.appendFile(this.file, `${JSON.stringify([runId, text])}\n`, { mode: 0o600 });
  }

  get(runId: string): string | undefined {
    return this.texts?.get(runId);
  }

  /** Lines of deleted runs left in the file since it was last written whole (this session's count). */
  private stale = 0;

  /** A deleted run: its line stays in the file until the file is written whole (see compact). */
  remove(runId: string): void {
    this.texts?.delete(runId);
    this.pending.delete(runId);
    this.stale++;
  }

  /**
   * Writes the file again without deleted runs' lines once they outnumber the live ones: a History trimmed run by
   * run for weeks without a search must not grow its search file without end.
   */
  async compact(liveIds: string[]): Promise<void> {
    if (this.stale < STALE_COMPACT || this.stale < liveIds.length) return;
    if (this.texts) return this.writeWhole();
    // Being read for a search: that read writes it whole when it is done.
    if (this.loading) return;
    const live = new Set(liveIds);
    const kept = new Map<string, string>();
    const raw = await fs.readFile(this.file, 'utf8').catch(() => '');
    for (const line of raw.split('\n')) {
      try {
        const [id] = JSON.parse(line) as [unknown];
        if (typeof id === 'string' && live.has(id)) kept.set(id, line);
      } catch {
        // A cut line: its run's text is made again when a search needs it.
      }
    }
    await writeFileAtomic(this.file, kept.size ? `${[...kept.values()].join('\n')}\n` : '');
    this.stale = 0;
  }

  /** Every run's text at once (a rebuilt index), or none. */
  async replace(texts: Map<string, string>): Promise<void> {
    this.texts = texts;
    this.loading = undefined;
    await this.writeWhole();
  }

  private async writeWhole(): Promise<void> {
    this.stale = 0;
    const lines = [...(this.texts ?? [])].map(([id, text]) => JSON.stringify([id, text]));
    await writeFileAtomic(this.file, lines.length ? `${lines.join('\n')}\n` : '');
  }
}

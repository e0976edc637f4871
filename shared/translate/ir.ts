/**
 * The neutral shape every request is read into, and what the protocol readers and writers share: reading
 * helpers that stop the translation with the reason, and the context that collects the loss list.
 */
import type { ProtocolId } from '../protocols/types';

export type Json = Record<string, unknown>;

/**
 * One entry of the translation's loss list: what the translated request lost, added or changed against the
 * source, so the user can tell a setting that is gone from one the translation put in.
 */
export interface Loss {
  /**
   * JSON path in the source body, e.g. `messages[0].content[1].cache_control`. For `added`, the source field
   * that calls for the addition (a filled-in max_tokens names the absent field it stands for).
   */
  path: string;
  /**
   * `lost`: left out, the target cannot say it. `not-translated`: a field this module does not know, left out.
   * `changed`: carried in another form, or moved. `added`: not in the source; the target needs it, or needs it
   * to behave as the source did.
   */
  kind: 'lost' | 'added' | 'changed' | 'not-translated';
  /** In words, for the user. */
  reason: string;
  /**
   * Where it went in the translated body: for `changed`, when it has one place; for `added`, always: the full
   * path of the field added.
   */
  to?: string;
}

export type TranslateResult =
  { ok: true; body: Record<string, unknown>; losses: Loss[] } | { ok: false; reason: string };

export const PROTOCOL_LABELS: Record<ProtocolId, string> = {
  messages: 'Messages',
  chat: 'Chat Completions',
  responses: 'Responses',
};

export type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export const EFFORTS: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/** `base.key` or `base[3]`; keys that are not plain identifiers are quoted: `properties["first name"]`. */
export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return `${base}[${JSON.stringify(key)}]`;
  return base === '' ? key : `${base}.${key}`;
}

export interface F<T> {
  v: T;
  path: string;
}

export type Part =
  | { type: 'text'; text: string; path: string }
  | { type: 'refusal'; text: string; path: string }
  /** `url` is an http(s) URL or a data URL (base64 sources become data URLs). */
  | { type: 'image'; url: string; detail?: F<string>; path: string }
  /** `data` is a data URL, or raw base64 when the source gave no media type. */
  | { type: 'file'; data?: string; url?: string; filename?: F<string>; path: string };

export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as JSON text (Chat/Responses carry them verbatim). */
  args: string;
  /** The Messages `input` object, when the call came from Messages (no re-parse, no reformatting). */
  input?: Json;
  argsPath: string;
}

export type Turn =
  | { role: 'system' | 'developer'; content: string | Part[]; path: string; instructions?: boolean }
  | { role: 'user'; content: string | Part[]; path: string }
  | { role: 'assistant'; content: string | Part[] | null; calls: ToolCall[]; path: string; contentPath: string }
  | { role: 'tool'; callId: string; output: string | Part[]; path: string };

export interface Tool {
  name: string;
  description?: string;
  schema?: unknown;
  strict?: boolean;
  path: string;
}

export interface Format {
  kind: 'text' | 'json_object' | 'json_schema';
  schema?: unknown;
  name?: F<string>;
  strict?: F<boolean>;
  description?: F<string>;
  path: string;
}

export interface IR {
  model?: string;
  turns: Turn[];
  maxTokens?: F<number>;
  temperature?: F<number>;
  topP?: F<number>;
  stop?: { v: string[]; path: string; wasString: boolean };
  stream?: F<boolean>;
  includeUsage?: F<boolean>;
  includeObfuscation?: F<boolean>;
  tools?: Tool[];
  toolChoice?: F<{ mode: 'auto' | 'any' | 'none' | 'tool'; name?: string }>;
  parallel?: F<boolean>;
  effort?: F<Effort>;
  /** Responses reasoning.summary. */
  summary?: F<'auto' | 'concise' | 'detailed'>;
  /** Messages thinking.display. */
  display?: F<'summarized' | 'omitted'>;
  format?: Format;
  verbosity?: F<string>;
  user?: F<string>;
  // Shared by Chat and Responses only: carried between them, dropped to Messages.
  safetyIdentifier?: F<string>;
  metadata?: F<Json>;
  store?: F<boolean>;
  promptCacheKey?: F<string>;
  promptCacheRetention?: F<string>;
  serviceTier?: F<string>;
  logprobs?: F<boolean>;
  topLogprobs?: F<number>;
}

export class Invalid extends Error {}

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export function shown(path: string): string {
  return path === '' ? 'the request' : path;
}

export function asObj(v: unknown, path: string): Json {
  if (!isObj(v)) throw new Invalid(`${shown(path)} must be an object.`);
  return v;
}

export function asArr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new Invalid(`${path} must be a list.`);
  return v;
}

export function asStr(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new Invalid(`${path} must be a string.`);
  return v;
}

export function strF(o: Json, key: string, base: string): F<string> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  return { v: asStr(o[key], path), path };
}

export function numF(o: Json, key: string, base: string): F<number> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(`${path} must be a number.`);
  return { v, path };
}

export function boolF(o: Json, key: string, base: string): F<boolean> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  if (typeof o[key] !== 'boolean') throw new Invalid(`${path} must be true or false.`);
  return { v: o[key], path };
}

export function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) {
    throw new Invalid(`${path} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}.`);
  }
  return v as T;
}

export function typeOf(o: Json, path: string): string {
  if (typeof o.type !== 'string') throw new Invalid(`${path} has no type.`);
  return o.type;
}

/** Why each target cannot take an empty assistant turn, and what becomes of the user turns on either side. */
const EMPTY_TURN: Record<ProtocolId, string> = {
  messages: 'Messages rejects an empty turn (the user turns on either side are merged upstream)',
  chat: 'Chat Completions rejects an assistant message with neither content nor tool calls',
  responses: 'Responses has no empty message',
};

export class Ctx {
  readonly losses: Loss[] = [];
  constructor(
    readonly from: ProtocolId,
    readonly to: ProtocolId,
  ) {}

  get target(): string {
    return PROTOCOL_LABELS[this.to];
  }

  get source(): string {
    return PROTOCOL_LABELS[this.from];
  }

  lose(path: string, reason: string): void {
    this.losses.push({ path, kind: 'lost', reason });
  }

  add(path: string, reason: string, to: string): void {
    this.losses.push({ path, kind: 'added', reason, to });
  }

  change(path: string, reason: string, to?: string): void {
    this.losses.push(to === undefined ? { path, kind: 'changed', reason } : { path, kind: 'changed', reason, to });
  }

  /** Names every key the reader will not look at, and every null it will treat as absent. */
  keys(o: Json, path: string, known: readonly string[], nullable: readonly string[] = []): void {
    for (const key of Object.keys(o)) {
      const p = childPath(path, key);
      if (!known.includes(key)) {
        this.losses.push({
          path: p,
          kind: 'not-translated',
          reason:
            `Not a ${this.source} field this translator knows: left out of the ${this.target} request (add ` +
            `it by hand if the gateway accepts it there).`,
        });
      } else if (o[key] === null && !nullable.includes(key)) {
        this.lose(p, 'null: left out, so the default applies.');
      }
    }
  }

  /** A part that names a file in a provider's store: nothing the target can read. */
  noFileId(path: string, sendInstead: string, store = "the provider's file store"): undefined {
    this.lose(path, `A file id from ${store}: ${this.target} cannot read it. Send ${sendInstead} instead.`);
    return undefined;
  }

  /**
   * An assistant turn with no tool call and no content left (e.g. only thinking blocks): no target takes it, so
   * the writers leave it out and name it here (docs/protocols.md §8).
   */
  emptyTurn(path: string): void {
    this.lose(path, `An assistant turn with nothing left to send: ${EMPTY_TURN[this.to]}, so it is left out.`);
  }

  noCache(path: string): void {
    this.lose(
      path,
      `${this.target} has no cache_control: it caches matching prefixes automatically (steered by prompt_cache_key).`,
    );
  }
}

export function notTranslatedBlock(path: string, type: string, ctx: Ctx): void {
  ctx.losses.push({
    path,
    kind: 'not-translated',
    reason: `A "${type}" block: not translated to ${ctx.target}, left out.`,
  });
}

export function maxField(p: ProtocolId): string {
  return p === 'messages' ? 'max_tokens' : p === 'chat' ? 'max_completion_tokens' : 'max_output_tokens';
}

export const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;

export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = DATA_URL.exec(url);
  return m ? { mediaType: m[1], data: m[3] } : undefined;
}

export function systemTurns(ir: IR): Extract<Turn, { role: 'system' | 'developer' }>[] {
  return ir.turns.filter(
    (t): t is Extract<Turn, { role: 'system' | 'developer' }> => t.role === 'system' || t.role === 'developer',
  );
}

/**
 * A tool's strict flag in the target. Responses enforces a tool's schema unless strict is false; Messages and
 * Chat enforce it only when strict is true. An explicit flag is carried as is; an absent one is added (at `to`)
 * so the behaviour stays the same, and named, since it comes back explicit.
 */
export function strictFor(t: Tool, ctx: Ctx, to: string): boolean | undefined {
  if (t.strict !== undefined) return t.strict;
  if (ctx.from === 'responses') {
    ctx.add(
      t.path,
      `Responses enforces a tool's schema when strict is not set; ${ctx.target} does only with strict: true, so ` +
        `strict: true is added (and comes back as strict: true).`,
      to,
    );
    return true;
  }
  if (ctx.to === 'responses') {
    ctx.add(
      t.path,
      `Responses enforces a tool's schema unless strict is false: strict: false is added to keep ${ctx.source}'s ` +
        `behaviour (and comes back as strict: false).`,
      to,
    );
    return false;
  }
  return undefined;
}

export function compact<T>(list: (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}

/** A string, or a list of typed content parts read one by one (`readPart` answers undefined for one left out). */
export function readParts(
  content: unknown,
  path: string,
  readPart: (o: Json, path: string, type: string) => Part | undefined,
): string | Part[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Invalid(`${path} must be a string or a list of content parts.`);
  const parts: Part[] = [];
  content.forEach((p, i) => {
    const pp = `${path}[${i}]`;
    const o = asObj(p, pp);
    const part = readPart(o, pp, typeOf(o, pp));
    if (part) parts.push(part);
  });
  return parts;
}

/**
 * A tools list, read tool by tool (`readTool` answers undefined for one it left out, and names it). A list whose
 * every tool was left out becomes no list: Chat Completions rejects an empty one.
 */
export function readTools(tools: unknown, readTool: (o: Json, path: string) => Tool | undefined): Tool[] | undefined {
  const list = asArr(tools, 'tools');
  const out = compact(list.map((t, i) => readTool(asObj(t, `tools[${i}]`), `tools[${i}]`)));
  return out.length > 0 || list.length === 0 ? out : undefined;
}

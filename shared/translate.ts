/**
 * Request translation between Messages, Chat Completions and Responses (protocols.md §8).
 *
 * Every request is read into one neutral shape (turns, tools, sampling, reasoning…) and written out in the
 * target's shape. Whatever the target cannot express is reported as a Loss at its path in the *source*
 * body, in words for the user: the tab switch shows this list before anything is sent. A field the module
 * does not know is reported "not-translated" and left out: carrying it blind could make the target reject the
 * request, dropping it silently would hide that the user's setting is gone.
 *
 * Where two source forms map onto one target form (a Chat `stop` string vs a list, a Responses `input`
 * string vs a list…), the form that cannot come back is named too, so a round trip A → B → A changes nothing
 * the losses do not name (translate.test.ts checks this on the corpus).
 *
 * Pure: no I/O, never mutates its input.
 */
import type { ProtocolId } from './protocols/types';

type Json = Record<string, unknown>;

export interface Loss {
  /** JSON path in the source body, e.g. `messages[0].content[1].cache_control`. */
  path: string;
  kind: 'dropped' | 'changed' | 'not-translated';
  /** In words, for the user. */
  reason: string;
  /** Where the value went, when it was changed rather than dropped. */
  to?: string;
}

export type TranslateResult =
  | { ok: true; body: Record<string, unknown>; losses: Loss[] }
  | { ok: false; reason: string };

export const PROTOCOL_LABELS: Record<ProtocolId, string> = {
  messages: 'Messages',
  chat: 'Chat Completions',
  responses: 'Responses',
};

/** Messages requires max_tokens; Chat and Responses may leave it out. */
export const DEFAULT_MAX_TOKENS = 4096;

/** Responses rejects a smaller max_output_tokens (integer_below_min_value). */
export const RESPONSES_MIN_OUTPUT_TOKENS = 16;

/** Chat Completions accepts at most this many stop sequences upstream. */
export const CHAT_MAX_STOP = 4;

/** Name given to a JSON schema when the source had none: Chat and Responses require one. */
export const DEFAULT_SCHEMA_NAME = 'output';

export type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
const EFFORTS: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const MESSAGES_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Thinking budget → effort level. The other protocols have levels, not budgets; the thresholds sit where
 * the first family's docs place "a little", "a fair amount" and "a lot" of thinking.
 */
export function effortForBudget(budgetTokens: number): 'low' | 'medium' | 'high' {
  if (budgetTokens < 4096) return 'low';
  if (budgetTokens < 16384) return 'medium';
  return 'high';
}

/** `base.key` or `base[3]`; keys that are not plain identifiers are quoted: `properties["first name"]`. */
export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return `${base}[${JSON.stringify(key)}]`;
  return base === '' ? key : `${base}.${key}`;
}

// ---------------------------------------------------------------------------------------------------------
// The neutral shape

interface F<T> {
  v: T;
  path: string;
}

type Part =
  | { type: 'text'; text: string; path: string }
  | { type: 'refusal'; text: string; path: string }
  /** `url` is an http(s) URL or a data URL (base64 sources become data URLs). */
  | { type: 'image'; url: string; detail?: F<string>; path: string }
  /** `data` is a data URL, or raw base64 when the source gave no media type. */
  | { type: 'file'; data?: string; url?: string; filename?: F<string>; path: string };

interface ToolCall {
  id: string;
  name: string;
  /** Arguments as JSON text (Chat/Responses carry them verbatim). */
  args: string;
  /** The Messages `input` object, when the call came from Messages (no re-parse, no reformatting). */
  input?: Json;
  argsPath: string;
}

type Turn =
  | { role: 'system' | 'developer'; content: string | Part[]; path: string; instructions?: boolean }
  | { role: 'user'; content: string | Part[]; path: string }
  | { role: 'assistant'; content: string | Part[] | null; calls: ToolCall[]; path: string; contentPath: string }
  | { role: 'tool'; callId: string; output: string | Part[]; path: string };

interface Tool {
  name: string;
  description?: string;
  schema?: unknown;
  strict?: boolean;
  path: string;
}

interface Format {
  kind: 'text' | 'json_object' | 'json_schema';
  schema?: unknown;
  name?: F<string>;
  strict?: F<boolean>;
  description?: F<string>;
  path: string;
}

interface IR {
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

// ---------------------------------------------------------------------------------------------------------
// Reading helpers: a malformed request stops the translation with the reason.

class Invalid extends Error {}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function shown(path: string): string {
  return path === '' ? 'the request' : path;
}

function asObj(v: unknown, path: string): Json {
  if (!isObj(v)) throw new Invalid(`${shown(path)} must be an object.`);
  return v;
}

function asArr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new Invalid(`${path} must be a list.`);
  return v;
}

function asStr(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new Invalid(`${path} must be a string.`);
  return v;
}

function strF(o: Json, key: string, base: string): F<string> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  return { v: asStr(o[key], path), path };
}

function numF(o: Json, key: string, base: string): F<number> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(`${path} must be a number.`);
  return { v, path };
}

function boolF(o: Json, key: string, base: string): F<boolean> | undefined {
  if (!present(o[key])) return undefined;
  const path = childPath(base, key);
  if (typeof o[key] !== 'boolean') throw new Invalid(`${path} must be true or false.`);
  return { v: o[key] as boolean, path };
}

function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) {
    throw new Invalid(`${path} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}.`);
  }
  return v as T;
}

function typeOf(o: Json, path: string): string {
  if (typeof o.type !== 'string') throw new Invalid(`${path} has no type.`);
  return o.type;
}

class Ctx {
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

  drop(path: string, reason: string): void {
    this.losses.push({ path, kind: 'dropped', reason });
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
          reason: `Not a ${this.source} field this translator knows: left out of the ${this.target} request (add it by hand if the gateway accepts it there).`,
        });
      } else if (o[key] === null && !nullable.includes(key)) {
        this.drop(p, 'null: left out, so the default applies.');
      }
    }
  }

  noCache(path: string): void {
    this.drop(path, `${this.target} has no cache_control: it caches matching prefixes automatically (steered by prompt_cache_key).`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Messages → neutral

const MESSAGES_TOP = [
  'model', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream',
  'tools', 'tool_choice', 'thinking', 'output_config', 'metadata', 'cache_control', 'service_tier',
  'container', 'mcp_servers', 'context_management',
];

function readMessages(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', MESSAGES_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  ir.maxTokens = numF(b, 'max_tokens', '');
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (present(b.top_k)) ctx.drop('top_k', `${ctx.target} has no top_k sampling.`);
  if (present(b.stop_sequences)) {
    const list = asArr(b.stop_sequences, 'stop_sequences').map((s, i) => asStr(s, `stop_sequences[${i}]`));
    ir.stop = { v: list, path: 'stop_sequences', wasString: false };
  }
  if (present(b.cache_control)) ctx.noCache('cache_control');
  if (present(b.service_tier)) {
    ctx.drop('service_tier', `The two families' service tiers mean different things: set ${ctx.target}'s service_tier by hand if needed.`);
  }
  for (const key of ['container', 'mcp_servers', 'context_management']) {
    if (present(b[key])) ctx.drop(key, `A Messages-only feature: ${ctx.target} has no ${key}.`);
  }
  if (present(b.metadata)) {
    const meta = asObj(b.metadata, 'metadata');
    ctx.keys(meta, 'metadata', ['user_id']);
    ir.user = strF(meta, 'user_id', 'metadata');
  }
  if (present(b.system)) ir.turns.push(readMessagesSystem(b.system, ctx));
  if (b.messages === undefined) throw new Invalid('messages is missing.');
  asArr(b.messages, 'messages').forEach((m, i) => readMessagesTurn(m, `messages[${i}]`, ir, ctx));
  if (present(b.tools)) ir.tools = readMessagesTools(b.tools, ctx);
  if (present(b.tool_choice)) readMessagesToolChoice(b.tool_choice, ir, ctx);
  readMessagesReasoning(b, ir, ctx);
  return ir;
}

function readMessagesSystem(system: unknown, ctx: Ctx): Turn {
  if (typeof system === 'string') return { role: 'system', content: system, path: 'system' };
  const parts = asArr(system, 'system').map((block, i): Part => {
    const path = `system[${i}]`;
    const o = asObj(block, path);
    if (typeOf(o, path) !== 'text') throw new Invalid(`${path} is a "${o.type}" block: system blocks must be text.`);
    ctx.keys(o, path, ['type', 'text', 'cache_control', 'citations']);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    if (present(o.citations)) ctx.drop(`${path}.citations`, `${ctx.target} has no citations on request text.`);
    return { type: 'text', text: asStr(o.text, `${path}.text`), path };
  });
  return { role: 'system', content: parts, path: 'system' };
}

function readMessagesTurn(m: unknown, path: string, ir: IR, ctx: Ctx): void {
  const o = asObj(m, path);
  ctx.keys(o, path, ['role', 'content']);
  if (o.role !== 'user' && o.role !== 'assistant') {
    const hint = o.role === 'system' ? ' (the system prompt goes in the top-level system field)' : '';
    throw new Invalid(`${path}.role must be "user" or "assistant"${hint}.`);
  }
  const contentPath = `${path}.content`;
  if (typeof o.content === 'string') {
    ir.turns.push(o.role === 'user' ? { role: 'user', content: o.content, path } : { role: 'assistant', content: o.content, calls: [], path, contentPath });
    return;
  }
  if (!Array.isArray(o.content)) throw new Invalid(`${contentPath} must be a string or a list of content blocks.`);
  if (o.role === 'assistant') {
    const parts: Part[] = [];
    const calls: ToolCall[] = [];
    o.content.forEach((block, j) => {
      const bp = `${contentPath}[${j}]`;
      const bo = asObj(block, bp);
      const type = typeOf(bo, bp);
      if (type === 'text') {
        const part = readMessagesText(bo, bp, ctx);
        if (calls.length > 0) ctx.change(bp, `${ctx.target} puts an assistant turn's text before its tool calls: this text moves ahead of them.`);
        parts.push(part);
      } else if (type === 'tool_use') {
        ctx.keys(bo, bp, ['type', 'id', 'name', 'input', 'cache_control']);
        if (present(bo.cache_control)) ctx.noCache(`${bp}.cache_control`);
        const input = bo.input === undefined ? {} : asObj(bo.input, `${bp}.input`);
        calls.push({ id: asStr(bo.id, `${bp}.id`), name: asStr(bo.name, `${bp}.name`), input, args: JSON.stringify(input), argsPath: `${bp}.input` });
      } else if (type === 'thinking' || type === 'redacted_thinking') {
        ctx.drop(bp, `${ctx.target} has no thinking blocks and their signatures cannot be recreated, so thinking starts over after this turn.`);
      } else if (type === 'server_tool_use' || type.endsWith('_tool_result')) {
        ctx.drop(bp, `A server-tool block (${type}): ${ctx.target} has no equivalent.`);
      } else {
        notTranslatedBlock(bp, type, ctx);
      }
    });
    ir.turns.push({ role: 'assistant', content: parts, calls, path, contentPath });
    return;
  }
  // A user turn: tool results become tool turns of their own (Chat tool messages / Responses outputs);
  // the rest of the turn follows them.
  const rest: Part[] = [];
  const results: Turn[] = [];
  o.content.forEach((block, j) => {
    const bp = `${contentPath}[${j}]`;
    const bo = asObj(block, bp);
    const type = typeOf(bo, bp);
    if (type === 'tool_result') {
      if (rest.length > 0) ctx.change(bp, `${ctx.target} needs tool results right after the tool calls: this result moves ahead of the text before it.`);
      results.push(readMessagesToolResult(bo, bp, ctx));
      return;
    }
    const part = readMessagesPart(bo, bp, type, ctx);
    if (part) rest.push(part);
  });
  ir.turns.push(...results);
  if (rest.length > 0 || results.length === 0) ir.turns.push({ role: 'user', content: rest, path });
}

function notTranslatedBlock(path: string, type: string, ctx: Ctx): void {
  ctx.losses.push({ path, kind: 'not-translated', reason: `A "${type}" block: not translated to ${ctx.target}, left out.` });
}

function readMessagesText(o: Json, path: string, ctx: Ctx): Part {
  ctx.keys(o, path, ['type', 'text', 'cache_control', 'citations']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  if (present(o.citations)) ctx.drop(`${path}.citations`, `${ctx.target} has no citations on request text.`);
  return { type: 'text', text: asStr(o.text, `${path}.text`), path };
}

/** text / image / document blocks (user turns and tool results). */
function readMessagesPart(o: Json, path: string, type: string, ctx: Ctx): Part | undefined {
  if (type === 'text') return readMessagesText(o, path, ctx);
  if (type === 'image') {
    ctx.keys(o, path, ['type', 'source', 'cache_control']);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    const sp = `${path}.source`;
    const src = asObj(o.source, sp);
    const st = typeOf(src, sp);
    if (st === 'base64') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      return { type: 'image', url: `data:${asStr(src.media_type, `${sp}.media_type`)};base64,${asStr(src.data, `${sp}.data`)}`, path };
    }
    if (st === 'url') {
      ctx.keys(src, sp, ['type', 'url']);
      return { type: 'image', url: asStr(src.url, `${sp}.url`), path };
    }
    if (st === 'file') {
      ctx.drop(path, `A file id from the Messages file store: ${ctx.target} cannot read it. Send the image inline instead.`);
      return undefined;
    }
    notTranslatedBlock(path, `image source ${st}`, ctx);
    return undefined;
  }
  if (type === 'document') {
    ctx.keys(o, path, ['type', 'source', 'title', 'context', 'citations', 'cache_control']);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    if (present(o.context)) ctx.drop(`${path}.context`, `${ctx.target} file parts have no context field.`);
    if (present(o.citations)) ctx.drop(`${path}.citations`, `${ctx.target} has no citations setting on files.`);
    const title = strF(o, 'title', path);
    const sp = `${path}.source`;
    const src = asObj(o.source, sp);
    const st = typeOf(src, sp);
    if (st === 'base64') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      const data = `data:${asStr(src.media_type, `${sp}.media_type`)};base64,${asStr(src.data, `${sp}.data`)}`;
      return { type: 'file', data, filename: title, path };
    }
    if (st === 'url') {
      ctx.keys(src, sp, ['type', 'url']);
      return { type: 'file', url: asStr(src.url, `${sp}.url`), filename: title, path };
    }
    if (st === 'text') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      ctx.change(path, `${ctx.target} has no plain-text documents: the document's text becomes a text part${title ? ' (its title is left out)' : ''}.`);
      return { type: 'text', text: asStr(src.data, `${sp}.data`), path };
    }
    if (st === 'file') {
      ctx.drop(path, `A file id from the Messages file store: ${ctx.target} cannot read it. Send the file inline instead.`);
      return undefined;
    }
    ctx.drop(path, `A document with a "${st}" source: ${ctx.target} has no equivalent.`);
    return undefined;
  }
  if (type === 'thinking' || type === 'redacted_thinking') {
    ctx.drop(path, `${ctx.target} has no thinking blocks and their signatures cannot be recreated.`);
    return undefined;
  }
  notTranslatedBlock(path, type, ctx);
  return undefined;
}

function readMessagesToolResult(o: Json, path: string, ctx: Ctx): Turn {
  ctx.keys(o, path, ['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  if (o.is_error !== undefined) {
    ctx.drop(
      `${path}.is_error`,
      o.is_error === true
        ? `${ctx.target} has no error flag on tool results: say it failed in the result text.`
        : `${ctx.target} has no error flag on tool results (false is the default anyway).`,
    );
  }
  const callId = asStr(o.tool_use_id, `${path}.tool_use_id`);
  const cp = `${path}.content`;
  let output: string | Part[] = '';
  if (typeof o.content === 'string') output = o.content;
  else if (present(o.content)) {
    output = [];
    for (const [k, block] of asArr(o.content, cp).entries()) {
      const bp = `${cp}[${k}]`;
      const bo = asObj(block, bp);
      const part = readMessagesPart(bo, bp, typeOf(bo, bp), ctx);
      if (part) output.push(part);
    }
  }
  return { role: 'tool', callId, output, path };
}

function readMessagesTools(tools: unknown, ctx: Ctx): Tool[] {
  const out: Tool[] = [];
  asArr(tools, 'tools').forEach((t, i) => {
    const path = `tools[${i}]`;
    const o = asObj(t, path);
    if (present(o.type) && o.type !== 'custom') {
      ctx.drop(path, `A server tool (${String(o.type)}): ${ctx.target} has no equivalent.`);
      return;
    }
    ctx.keys(o, path, ['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);
    if (o.type === 'custom') ctx.drop(`${path}.type`, `"custom" is implied for client tools; ${ctx.target} writes function tools.`);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    out.push({
      name: asStr(o.name, `${path}.name`),
      description: strF(o, 'description', path)?.v,
      schema: o.input_schema,
      strict: boolF(o, 'strict', path)?.v,
      path,
    });
  });
  return out;
}

function readMessagesToolChoice(tc: unknown, ir: IR, ctx: Ctx): void {
  const o = asObj(tc, 'tool_choice');
  ctx.keys(o, 'tool_choice', ['type', 'name', 'disable_parallel_tool_use']);
  const type = oneOf(o.type, 'tool_choice.type', ['auto', 'any', 'tool', 'none'] as const);
  ir.toolChoice = { v: { mode: type, name: type === 'tool' ? asStr(o.name, 'tool_choice.name') : undefined }, path: 'tool_choice' };
  const disable = boolF(o, 'disable_parallel_tool_use', 'tool_choice');
  if (disable) ir.parallel = { v: !disable.v, path: disable.path };
}

function readMessagesReasoning(b: Json, ir: IR, ctx: Ctx): void {
  let effort: F<Effort> | undefined;
  if (present(b.output_config)) {
    const oc = asObj(b.output_config, 'output_config');
    ctx.keys(oc, 'output_config', ['effort', 'format']);
    if (present(oc.effort)) effort = { v: oneOf(oc.effort, 'output_config.effort', MESSAGES_EFFORTS), path: 'output_config.effort' };
    if (present(oc.format)) {
      const fp = 'output_config.format';
      const f = asObj(oc.format, fp);
      ctx.keys(f, fp, ['type', 'schema']);
      oneOf(f.type, `${fp}.type`, ['json_schema'] as const);
      ir.format = { kind: 'json_schema', schema: f.schema, path: fp };
    }
  }
  const effortPath = ctx.to === 'chat' ? 'reasoning_effort' : 'reasoning.effort';
  if (present(b.thinking)) {
    const t = asObj(b.thinking, 'thinking');
    ctx.keys(t, 'thinking', ['type', 'budget_tokens', 'display']);
    const type = oneOf(t.type, 'thinking.type', ['enabled', 'adaptive', 'disabled'] as const);
    if (type === 'enabled') {
      const budget = numF(t, 'budget_tokens', 'thinking');
      if (!budget) throw new Invalid('thinking.budget_tokens is missing (thinking type "enabled" needs a budget).');
      if (effort) {
        ir.effort = effort;
        ctx.change('thinking', `${ctx.target} has effort levels, not thinking budgets: the budget of ${budget.v} tokens is left out and output_config.effort "${effort.v}" is used.`, effortPath);
      } else {
        const level = effortForBudget(budget.v);
        ir.effort = { v: level, path: 'thinking' };
        ctx.change('thinking', `Thinking budget of ${budget.v} tokens becomes reasoning effort "${level}": ${ctx.target} has effort levels, not budgets.`, effortPath);
      }
    } else if (type === 'adaptive') {
      // Adaptive thinking without an effort thinks at the first family's default depth, "high"; written back,
      // "high" becomes adaptive thinking alone, so an explicit "high" is the one form that does not return.
      ir.effort = effort ?? { v: 'high', path: 'thinking' };
      if (effort?.v === 'high') {
        ctx.change(effort.path, `"high" is adaptive thinking's default depth: ${ctx.target} gets reasoning effort "high", and translating back leaves output_config.effort out.`, effortPath);
      }
    } else {
      ir.effort = { v: 'none', path: 'thinking' };
      if (effort) ctx.change(effort.path, `Thinking is disabled: reasoning effort "none" is sent instead of "${effort.v}".`, effortPath);
    }
    if (present(t.display)) ir.display = { v: oneOf(t.display, 'thinking.display', ['summarized', 'omitted'] as const), path: 'thinking.display' };
  } else if (effort) {
    // Without thinking, effort only steers how much the model writes. The other protocols' reasoning effort
    // asks for reasoning (translated back it turns thinking on), which this request does not ask for.
    ctx.drop(effort.path, `Without thinking, Messages' effort only steers how much the model writes; in ${ctx.target} reasoning effort asks for reasoning, which this request does not use, so it is left out.`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Chat Completions → neutral

const CHAT_TOP = [
  'model', 'messages', 'max_completion_tokens', 'max_tokens', 'temperature', 'top_p', 'stop', 'stream',
  'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'reasoning_effort',
  'verbosity', 'metadata', 'store', 'prompt_cache_key', 'prompt_cache_retention', 'user', 'safety_identifier',
  'service_tier', 'logprobs', 'top_logprobs', 'presence_penalty', 'frequency_penalty', 'seed', 'n',
  'logit_bias', 'modalities', 'audio', 'prediction', 'web_search_options', 'functions', 'function_call',
];

/** Chat-only controls: neither Messages nor Responses has them. */
const CHAT_ONLY: Record<string, string> = {
  presence_penalty: 'has no presence penalty',
  frequency_penalty: 'has no frequency penalty',
  seed: 'has no seed',
  n: 'returns one answer per request (no n)',
  logit_bias: 'has no logit bias',
  modalities: 'has no audio output (modalities)',
  audio: 'has no audio output',
  prediction: 'has no predicted outputs',
  web_search_options: "has no equivalent of Chat's built-in web search options",
  functions: 'has no legacy functions list (Chat tools are translated instead)',
  function_call: 'has no legacy function_call (Chat tool_choice is translated instead)',
};

function maxField(p: ProtocolId): string {
  return p === 'messages' ? 'max_tokens' : p === 'chat' ? 'max_completion_tokens' : 'max_output_tokens';
}

function readChat(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', CHAT_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  const mct = numF(b, 'max_completion_tokens', '');
  const legacy = numF(b, 'max_tokens', '');
  if (mct) {
    ir.maxTokens = mct;
    if (legacy) ctx.drop('max_tokens', 'The deprecated max_tokens is ignored when max_completion_tokens is set.');
  } else if (legacy) {
    ir.maxTokens = legacy;
    ctx.change('max_tokens', `Chat's deprecated name for the output cap: it becomes ${maxField(ctx.to)}, and translating back writes max_completion_tokens.`, maxField(ctx.to));
  }
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (typeof b.stop === 'string') ir.stop = { v: [b.stop], path: 'stop', wasString: true };
  else if (present(b.stop)) ir.stop = { v: asArr(b.stop, 'stop').map((s, i) => asStr(s, `stop[${i}]`)), path: 'stop', wasString: false };
  if (present(b.stream_options)) {
    const so = asObj(b.stream_options, 'stream_options');
    ctx.keys(so, 'stream_options', ['include_usage', 'include_obfuscation']);
    ir.includeUsage = boolF(so, 'include_usage', 'stream_options');
    ir.includeObfuscation = boolF(so, 'include_obfuscation', 'stream_options');
  }
  for (const [key, what] of Object.entries(CHAT_ONLY)) {
    if (present(b[key])) ctx.drop(key, `${ctx.target} ${what}.`);
  }
  readOpenAiCommon(b, ir);
  ir.logprobs = boolF(b, 'logprobs', '');
  ir.verbosity = strF(b, 'verbosity', '');
  if (present(b.reasoning_effort)) ir.effort = { v: oneOf(b.reasoning_effort, 'reasoning_effort', EFFORTS), path: 'reasoning_effort' };
  if (b.messages === undefined) throw new Invalid('messages is missing.');
  asArr(b.messages, 'messages').forEach((m, i) => readChatMessage(m, `messages[${i}]`, ir, ctx));
  if (present(b.tools)) ir.tools = readChatTools(b.tools, ctx);
  if (present(b.tool_choice)) readOpenAiToolChoice(b.tool_choice, ir, ctx, 'chat');
  ir.parallel = boolF(b, 'parallel_tool_calls', '');
  if (present(b.response_format)) readChatFormat(b.response_format, ir, ctx);
  return ir;
}

/** Fields Chat and Responses spell the same way. */
function readOpenAiCommon(b: Json, ir: IR): void {
  ir.user = strF(b, 'user', '');
  ir.safetyIdentifier = strF(b, 'safety_identifier', '');
  if (present(b.metadata)) ir.metadata = { v: asObj(b.metadata, 'metadata'), path: 'metadata' };
  ir.store = boolF(b, 'store', '');
  ir.promptCacheKey = strF(b, 'prompt_cache_key', '');
  ir.promptCacheRetention = strF(b, 'prompt_cache_retention', '');
  ir.serviceTier = strF(b, 'service_tier', '');
  ir.topLogprobs = numF(b, 'top_logprobs', '');
}

function readChatMessage(m: unknown, path: string, ir: IR, ctx: Ctx): void {
  const o = asObj(m, path);
  const role = o.role;
  const contentPath = `${path}.content`;
  if (present(o.name) && role !== 'tool' && role !== 'function') {
    ctx.drop(`${path}.name`, `${ctx.target} has no participant names on messages.`);
  }
  switch (role) {
    case 'system':
    case 'developer': {
      ctx.keys(o, path, ['role', 'content', 'name']);
      ir.turns.push({ role, content: readChatContent(o.content, contentPath, ctx, ['text']), path });
      return;
    }
    case 'user': {
      ctx.keys(o, path, ['role', 'content', 'name']);
      ir.turns.push({ role: 'user', content: readChatContent(o.content, contentPath, ctx, ['text', 'image_url', 'file', 'input_audio']), path });
      return;
    }
    case 'assistant': {
      ctx.keys(o, path, ['role', 'content', 'tool_calls', 'refusal', 'name', 'audio', 'function_call', 'reasoning_content'], ['content']);
      let content: string | Part[] | null = present(o.content) ? readChatContent(o.content, contentPath, ctx, ['text', 'refusal']) : null;
      if (present(o.refusal)) {
        const text = asStr(o.refusal, `${path}.refusal`);
        if (ctx.to === 'messages') {
          ctx.drop(`${path}.refusal`, 'Messages has no refusal in earlier turns.');
        } else {
          ctx.change(`${path}.refusal`, 'Becomes a refusal content part of the assistant message (and comes back as one).');
          const part: Part = { type: 'refusal', text, path: `${path}.refusal` };
          content = content === null ? [part] : typeof content === 'string' ? [{ type: 'text', text: content, path: contentPath }, part] : [...content, part];
        }
      }
      if (present(o.audio)) ctx.drop(`${path}.audio`, `${ctx.target} has no audio replies.`);
      if (present(o.function_call)) ctx.drop(`${path}.function_call`, `A legacy function_call: ${ctx.target} only takes tool calls.`);
      if (present(o.reasoning_content)) {
        ctx.drop(`${path}.reasoning_content`, `A gateway extension (visible reasoning): ${ctx.target} cannot take it back as reasoning.`);
      }
      const calls: ToolCall[] = [];
      if (present(o.tool_calls)) {
        asArr(o.tool_calls, `${path}.tool_calls`).forEach((c, j) => {
          const cp = `${path}.tool_calls[${j}]`;
          const co = asObj(c, cp);
          if (present(co.type) && co.type !== 'function') {
            ctx.drop(cp, `A "${String(co.type)}" tool call: ${ctx.target} only has function tool calls.`);
            return;
          }
          ctx.keys(co, cp, ['id', 'type', 'function']);
          const fp = `${cp}.function`;
          const fn = asObj(co.function, fp);
          ctx.keys(fn, fp, ['name', 'arguments']);
          calls.push({ id: asStr(co.id, `${cp}.id`), name: asStr(fn.name, `${fp}.name`), args: asStr(fn.arguments ?? '', `${fp}.arguments`), argsPath: `${fp}.arguments` });
        });
      }
      ir.turns.push({ role: 'assistant', content, calls, path, contentPath });
      return;
    }
    case 'tool': {
      ctx.keys(o, path, ['role', 'content', 'tool_call_id']);
      const output = readChatContent(o.content ?? '', contentPath, ctx, ['text']);
      ir.turns.push({ role: 'tool', callId: asStr(o.tool_call_id, `${path}.tool_call_id`), output, path });
      return;
    }
    case 'function':
      ctx.drop(path, `A legacy function-result message: ${ctx.target} only takes tool results.`);
      return;
    default:
      throw new Invalid(`${path}.role must be one of "system", "developer", "user", "assistant", "tool".`);
  }
}

function readChatContent(content: unknown, path: string, ctx: Ctx, allowed: readonly string[]): string | Part[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Invalid(`${path} must be a string or a list of content parts.`);
  const parts: Part[] = [];
  content.forEach((p, i) => {
    const pp = `${path}[${i}]`;
    const o = asObj(p, pp);
    const type = typeOf(o, pp);
    if (!allowed.includes(type)) {
      notTranslatedBlock(pp, type, ctx);
      return;
    }
    switch (type) {
      case 'text':
        ctx.keys(o, pp, ['type', 'text']);
        parts.push({ type: 'text', text: asStr(o.text, `${pp}.text`), path: pp });
        return;
      case 'refusal':
        ctx.keys(o, pp, ['type', 'refusal']);
        parts.push({ type: 'refusal', text: asStr(o.refusal, `${pp}.refusal`), path: pp });
        return;
      case 'image_url': {
        ctx.keys(o, pp, ['type', 'image_url']);
        const ip = `${pp}.image_url`;
        // Some clients write the URL directly; the API's own shape is {url, detail}.
        if (typeof o.image_url === 'string') {
          parts.push({ type: 'image', url: o.image_url, path: pp });
          return;
        }
        const img = asObj(o.image_url, ip);
        ctx.keys(img, ip, ['url', 'detail']);
        parts.push({ type: 'image', url: asStr(img.url, `${ip}.url`), detail: strF(img, 'detail', ip), path: pp });
        return;
      }
      case 'file': {
        ctx.keys(o, pp, ['type', 'file']);
        const fp = `${pp}.file`;
        const f = asObj(o.file, fp);
        ctx.keys(f, fp, ['file_data', 'file_id', 'filename']);
        if (present(f.file_id)) {
          ctx.drop(pp, `A file id from the provider's file store: ${ctx.target} cannot read it. Send the file inline (file_data) instead.`);
          return;
        }
        parts.push({ type: 'file', data: asStr(f.file_data, `${fp}.file_data`), filename: strF(f, 'filename', fp), path: pp });
        return;
      }
      case 'input_audio':
        ctx.drop(pp, `${ctx.target} has no audio input.`);
        return;
    }
  });
  return parts;
}

function readChatTools(tools: unknown, ctx: Ctx): Tool[] {
  const out: Tool[] = [];
  asArr(tools, 'tools').forEach((t, i) => {
    const path = `tools[${i}]`;
    const o = asObj(t, path);
    if (o.type !== 'function') {
      ctx.drop(path, `A "${String(o.type)}" tool: ${ctx.target} only takes function tools.`);
      return;
    }
    ctx.keys(o, path, ['type', 'function']);
    const fp = `${path}.function`;
    const fn = asObj(o.function, fp);
    ctx.keys(fn, fp, ['name', 'description', 'parameters', 'strict']);
    out.push({ name: asStr(fn.name, `${fp}.name`), description: strF(fn, 'description', fp)?.v, schema: fn.parameters ?? undefined, strict: boolF(fn, 'strict', fp)?.v, path: fp });
  });
  return out;
}

function readOpenAiToolChoice(tc: unknown, ir: IR, ctx: Ctx, from: 'chat' | 'responses'): void {
  if (typeof tc === 'string') {
    const mode = oneOf(tc, 'tool_choice', ['auto', 'none', 'required'] as const);
    ir.toolChoice = { v: { mode: mode === 'required' ? 'any' : mode }, path: 'tool_choice' };
    return;
  }
  const o = asObj(tc, 'tool_choice');
  if (o.type !== 'function') {
    ctx.drop('tool_choice', `A "${String(o.type)}" tool choice: ${ctx.target} only names function tools.`);
    return;
  }
  if (from === 'chat') {
    ctx.keys(o, 'tool_choice', ['type', 'function']);
    const fn = asObj(o.function, 'tool_choice.function');
    ctx.keys(fn, 'tool_choice.function', ['name']);
    ir.toolChoice = { v: { mode: 'tool', name: asStr(fn.name, 'tool_choice.function.name') }, path: 'tool_choice' };
  } else {
    ctx.keys(o, 'tool_choice', ['type', 'name']);
    ir.toolChoice = { v: { mode: 'tool', name: asStr(o.name, 'tool_choice.name') }, path: 'tool_choice' };
  }
}

function readChatFormat(rf: unknown, ir: IR, ctx: Ctx): void {
  const o = asObj(rf, 'response_format');
  const kind = oneOf(o.type, 'response_format.type', ['text', 'json_object', 'json_schema'] as const);
  if (kind !== 'json_schema') {
    ctx.keys(o, 'response_format', ['type']);
    ir.format = { kind, path: 'response_format' };
    return;
  }
  ctx.keys(o, 'response_format', ['type', 'json_schema']);
  const jp = 'response_format.json_schema';
  const js = asObj(o.json_schema, jp);
  ctx.keys(js, jp, ['name', 'schema', 'strict', 'description']);
  ir.format = { kind, schema: js.schema, name: strF(js, 'name', jp), strict: boolF(js, 'strict', jp), description: strF(js, 'description', jp), path: 'response_format' };
}

// ---------------------------------------------------------------------------------------------------------
// Responses → neutral

const RESPONSES_TOP = [
  'model', 'input', 'instructions', 'max_output_tokens', 'temperature', 'top_p', 'top_logprobs', 'stream',
  'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'text', 'include', 'metadata',
  'store', 'prompt_cache_key', 'prompt_cache_retention', 'service_tier', 'user', 'safety_identifier',
  'previous_response_id', 'conversation', 'background', 'truncation', 'prompt', 'max_tool_calls',
];

const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

function readResponses(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', RESPONSES_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  ir.maxTokens = numF(b, 'max_output_tokens', '');
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (present(b.stream_options)) {
    const so = asObj(b.stream_options, 'stream_options');
    ctx.keys(so, 'stream_options', ['include_obfuscation']);
    ir.includeObfuscation = boolF(so, 'include_obfuscation', 'stream_options');
  }
  readOpenAiCommon(b, ir);
  const stateless = `${ctx.target} is stateless: send the whole conversation instead.`;
  if (present(b.previous_response_id)) ctx.drop('previous_response_id', `Server-side history: ${stateless}`);
  if (present(b.conversation)) ctx.drop('conversation', `A server-side conversation: ${stateless}`);
  if (present(b.background)) ctx.drop('background', `${ctx.target} has no background mode.`);
  if (present(b.truncation)) ctx.drop('truncation', `${ctx.target} has no truncation setting (an over-long request is rejected).`);
  if (present(b.prompt)) ctx.drop('prompt', `A stored prompt template: ${ctx.target} cannot reference it.`);
  if (present(b.max_tool_calls)) ctx.drop('max_tool_calls', `${ctx.target} has no limit on built-in tool calls.`);
  if (present(b.include)) {
    asArr(b.include, 'include').forEach((entry, i) => {
      const path = `include[${i}]`;
      if (entry === LOGPROBS_INCLUDE && ctx.to === 'chat') ir.logprobs = { v: true, path };
      else if (entry === 'reasoning.encrypted_content') ctx.drop(path, `Encrypted reasoning only means something to Responses: ${ctx.target} cannot carry it.`);
      else ctx.drop(path, `${ctx.target} has no include list for "${String(entry)}".`);
    });
  }
  if (present(b.reasoning)) {
    const r = asObj(b.reasoning, 'reasoning');
    ctx.keys(r, 'reasoning', ['effort', 'summary']);
    if (present(r.effort)) ir.effort = { v: oneOf(r.effort, 'reasoning.effort', EFFORTS), path: 'reasoning.effort' };
    if (present(r.summary)) ir.summary = { v: oneOf(r.summary, 'reasoning.summary', ['auto', 'concise', 'detailed'] as const), path: 'reasoning.summary' };
  }
  if (present(b.text)) {
    const t = asObj(b.text, 'text');
    ctx.keys(t, 'text', ['format', 'verbosity']);
    ir.verbosity = strF(t, 'verbosity', 'text');
    if (present(t.format)) {
      const fp = 'text.format';
      const f = asObj(t.format, fp);
      const kind = oneOf(f.type, `${fp}.type`, ['text', 'json_object', 'json_schema'] as const);
      if (kind === 'json_schema') {
        ctx.keys(f, fp, ['type', 'name', 'schema', 'strict', 'description']);
        ir.format = { kind, schema: f.schema, name: strF(f, 'name', fp), strict: boolF(f, 'strict', fp), description: strF(f, 'description', fp), path: fp };
      } else {
        ctx.keys(f, fp, ['type']);
        ir.format = { kind, path: fp };
      }
    }
  }
  if (present(b.instructions)) {
    ir.turns.push({ role: 'system', content: asStr(b.instructions, 'instructions'), path: 'instructions', instructions: true });
  }
  if (b.input === undefined) throw new Invalid('input is missing.');
  if (typeof b.input === 'string') {
    ctx.change('input', 'The text becomes the first user message; translating back gives a one-message input list.');
    ir.turns.push({ role: 'user', content: b.input, path: 'input' });
  } else {
    readResponsesItems(asArr(b.input, 'input'), ir, ctx, !present(b.instructions));
  }
  if (present(b.tools)) ir.tools = readResponsesTools(b.tools, ctx);
  if (present(b.tool_choice)) readOpenAiToolChoice(b.tool_choice, ir, ctx, 'responses');
  ir.parallel = boolF(b, 'parallel_tool_calls', '');
  return ir;
}

const HOSTED_ITEMS = [
  'web_search_call', 'file_search_call', 'computer_call', 'computer_call_output', 'code_interpreter_call',
  'image_generation_call', 'local_shell_call', 'local_shell_call_output', 'shell_call', 'shell_call_output',
  'apply_patch_call', 'apply_patch_call_output', 'mcp_call', 'mcp_list_tools', 'mcp_approval_request',
  'mcp_approval_response', 'custom_tool_call', 'custom_tool_call_output',
];

function readResponsesItems(items: unknown[], ir: IR, ctx: Ctx, noInstructions: boolean): void {
  // Function calls join the assistant turn they follow, as one Messages/Chat assistant turn holds them.
  let current: Extract<Turn, { role: 'assistant' }> | undefined;
  items.forEach((item, i) => {
    const path = `input[${i}]`;
    const o = asObj(item, path);
    const type = o.type ?? (o.role !== undefined ? 'message' : undefined);
    if (typeof type !== 'string') throw new Invalid(`${path} has no type.`);
    if (type !== 'reasoning' && type !== 'function_call') current = undefined;
    switch (type) {
      case 'message': {
        ctx.keys(o, path, ['type', 'role', 'content', 'id', 'status']);
        dropItemIds(o, path, ctx);
        const role = oneOf(o.role, `${path}.role`, ['user', 'assistant', 'system', 'developer'] as const);
        const cp = `${path}.content`;
        if (role === 'assistant') {
          current = { role, content: readResponsesContent(o.content, cp, ctx, 'assistant'), calls: [], path, contentPath: cp };
          ir.turns.push(current);
        } else if (role === 'user') {
          ir.turns.push({ role, content: readResponsesContent(o.content, cp, ctx, 'user'), path });
        } else {
          const content = readResponsesContent(o.content, cp, ctx, 'system');
          if (i === 0 && noInstructions && role === 'system' && typeof content === 'string') {
            ctx.change(path, 'A leading system message means the same as instructions; translating back writes it as instructions.');
          }
          ir.turns.push({ role, content, path });
        }
        return;
      }
      case 'function_call': {
        ctx.keys(o, path, ['type', 'call_id', 'name', 'arguments', 'id', 'status']);
        dropItemIds(o, path, ctx);
        const call: ToolCall = {
          id: asStr(o.call_id, `${path}.call_id`),
          name: asStr(o.name, `${path}.name`),
          args: asStr(o.arguments ?? '', `${path}.arguments`),
          argsPath: `${path}.arguments`,
        };
        if (current) current.calls.push(call);
        else {
          current = { role: 'assistant', content: null, calls: [call], path, contentPath: path };
          ir.turns.push(current);
        }
        return;
      }
      case 'function_call_output': {
        ctx.keys(o, path, ['type', 'call_id', 'output', 'id', 'status']);
        dropItemIds(o, path, ctx);
        const output = readResponsesContent(o.output ?? '', `${path}.output`, ctx, 'user');
        ir.turns.push({ role: 'tool', callId: asStr(o.call_id, `${path}.call_id`), output, path });
        return;
      }
      case 'reasoning':
        ctx.drop(path, `A reasoning item only means something to Responses (its summary and encrypted content cannot be recreated in ${ctx.target}).`);
        return;
      case 'item_reference':
        ctx.drop(path, `A reference to a stored item: ${ctx.target} is stateless, send the item itself.`);
        return;
      default:
        if (HOSTED_ITEMS.includes(type)) ctx.drop(path, `A built-in tool item (${type}): ${ctx.target} has no equivalent.`);
        else notTranslatedBlock(path, type, ctx);
    }
  });
}

function dropItemIds(o: Json, path: string, ctx: Ctx): void {
  if (present(o.id)) ctx.drop(`${path}.id`, `Item ids are Responses-only: ${ctx.target} has none.`);
  if (present(o.status)) ctx.drop(`${path}.status`, `Item status is Responses-only: ${ctx.target} has none.`);
}

function readResponsesContent(content: unknown, path: string, ctx: Ctx, role: 'user' | 'assistant' | 'system'): string | Part[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Invalid(`${path} must be a string or a list of content parts.`);
  const parts: Part[] = [];
  content.forEach((p, i) => {
    const pp = `${path}[${i}]`;
    const o = asObj(p, pp);
    const type = typeOf(o, pp);
    if (type === 'input_text' && role === 'assistant') {
      ctx.keys(o, pp, ['type', 'text']);
      ctx.change(pp, 'Assistant text comes back as output_text.');
      parts.push({ type: 'text', text: asStr(o.text, `${pp}.text`), path: pp });
    } else if (type === 'input_text') {
      ctx.keys(o, pp, ['type', 'text']);
      parts.push({ type: 'text', text: asStr(o.text, `${pp}.text`), path: pp });
    } else if (type === 'output_text' && role === 'assistant') {
      ctx.keys(o, pp, ['type', 'text', 'annotations', 'logprobs']);
      if (o.annotations !== undefined) ctx.drop(`${pp}.annotations`, `${ctx.target} takes no annotations (citations) in earlier turns.`);
      if (o.logprobs !== undefined) ctx.drop(`${pp}.logprobs`, `${ctx.target} takes no log probabilities in earlier turns.`);
      parts.push({ type: 'text', text: asStr(o.text, `${pp}.text`), path: pp });
    } else if (type === 'refusal' && role === 'assistant') {
      ctx.keys(o, pp, ['type', 'refusal']);
      if (ctx.to === 'messages') ctx.drop(pp, 'Messages has no refusal in earlier turns.');
      else parts.push({ type: 'refusal', text: asStr(o.refusal, `${pp}.refusal`), path: pp });
    } else if (type === 'input_image' && role === 'user') {
      ctx.keys(o, pp, ['type', 'image_url', 'file_id', 'detail']);
      if (present(o.file_id) && !present(o.image_url)) {
        ctx.drop(pp, `A file id from the provider's file store: ${ctx.target} cannot read it. Send the image inline instead.`);
        return;
      }
      if (present(o.file_id)) ctx.drop(`${pp}.file_id`, `${ctx.target} cannot read provider file ids; the image URL is used.`);
      parts.push({ type: 'image', url: asStr(o.image_url, `${pp}.image_url`), detail: strF(o, 'detail', pp), path: pp });
    } else if (type === 'input_file' && role === 'user') {
      ctx.keys(o, pp, ['type', 'file_data', 'file_id', 'file_url', 'filename']);
      if (!present(o.file_data) && !present(o.file_url)) {
        ctx.drop(pp, `A file id from the provider's file store: ${ctx.target} cannot read it. Send the file inline instead.`);
        return;
      }
      if (present(o.file_id)) ctx.drop(`${pp}.file_id`, `${ctx.target} cannot read provider file ids.`);
      parts.push({
        type: 'file',
        data: strF(o, 'file_data', pp)?.v,
        url: present(o.file_data) ? undefined : strF(o, 'file_url', pp)?.v,
        filename: strF(o, 'filename', pp),
        path: pp,
      });
      if (present(o.file_data) && present(o.file_url)) ctx.drop(`${pp}.file_url`, 'Both file_data and file_url were given: the inline data is used.');
    } else if (type === 'input_audio') {
      ctx.drop(pp, `${ctx.target} has no audio input.`);
    } else {
      notTranslatedBlock(pp, type, ctx);
    }
  });
  return parts;
}

function readResponsesTools(tools: unknown, ctx: Ctx): Tool[] {
  const out: Tool[] = [];
  asArr(tools, 'tools').forEach((t, i) => {
    const path = `tools[${i}]`;
    const o = asObj(t, path);
    if (o.type !== 'function') {
      ctx.drop(path, `A built-in "${String(o.type)}" tool: ${ctx.target} has no equivalent.`);
      return;
    }
    ctx.keys(o, path, ['type', 'name', 'description', 'parameters', 'strict']);
    out.push({ name: asStr(o.name, `${path}.name`), description: strF(o, 'description', path)?.v, schema: o.parameters ?? undefined, strict: boolF(o, 'strict', path)?.v, path });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Shared writing helpers

const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;

function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = DATA_URL.exec(url);
  return m ? { mediaType: m[1], data: m[3] } : undefined;
}

function systemTurns(ir: IR): Extract<Turn, { role: 'system' | 'developer' }>[] {
  return ir.turns.filter((t): t is Extract<Turn, { role: 'system' | 'developer' }> => t.role === 'system' || t.role === 'developer');
}

function dropOpenAiOnly(ir: IR, ctx: Ctx): void {
  if (ir.metadata) ctx.drop(ir.metadata.path, "Messages' metadata takes only user_id, not a map.");
  if (ir.store) ctx.drop(ir.store.path, 'Messages stores nothing server-side (no store).');
  if (ir.promptCacheKey) ctx.drop(ir.promptCacheKey.path, 'Messages caches by cache_control marks, not a cache key.');
  if (ir.promptCacheRetention) ctx.drop(ir.promptCacheRetention.path, 'Messages sets cache lifetime per cache_control mark (ttl), not per request.');
  if (ir.serviceTier) ctx.drop(ir.serviceTier.path, "The two families' service tiers mean different things: set Messages' service_tier by hand if needed.");
  if (ir.logprobs) ctx.drop(ir.logprobs.path, 'Messages returns no log probabilities.');
  if (ir.topLogprobs) ctx.drop(ir.topLogprobs.path, 'Messages returns no log probabilities.');
  if (ir.verbosity) ctx.drop(ir.verbosity.path, 'Messages has no verbosity setting.');
  if (ir.includeObfuscation) ctx.drop(ir.includeObfuscation.path, 'Messages streams have no obfuscation padding.');
}

/**
 * A tool's strict flag in the target. Responses enforces a tool's schema unless strict is false; Messages and
 * Chat enforce it only when strict is true. An explicit flag is carried as is; an absent one is written out so
 * the behaviour stays the same, and named, since it comes back explicit.
 */
function strictFor(t: Tool, ctx: Ctx): boolean | undefined {
  if (t.strict !== undefined) return t.strict;
  if (ctx.from === 'responses') {
    ctx.change(t.path, `Responses enforces a tool's schema when strict is not set; ${ctx.target} does only with strict: true, so strict: true is written (and comes back as strict: true).`, 'strict');
    return true;
  }
  if (ctx.to === 'responses') {
    ctx.change(t.path, `Responses enforces a tool's schema unless strict is false: strict: false is written to keep ${ctx.source}'s behaviour (and comes back as strict: false).`, 'strict');
    return false;
  }
  return undefined;
}

function carryOpenAiCommon(ir: IR, out: Json): void {
  if (ir.user) out.user = ir.user.v;
  if (ir.safetyIdentifier) out.safety_identifier = ir.safetyIdentifier.v;
  if (ir.metadata) out.metadata = ir.metadata.v;
  if (ir.store) out.store = ir.store.v;
  if (ir.promptCacheKey) out.prompt_cache_key = ir.promptCacheKey.v;
  if (ir.promptCacheRetention) out.prompt_cache_retention = ir.promptCacheRetention.v;
  if (ir.serviceTier) out.service_tier = ir.serviceTier.v;
  if (ir.topLogprobs) out.top_logprobs = ir.topLogprobs.v;
}

// ---------------------------------------------------------------------------------------------------------
// neutral → Messages

function writeMessages(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  if (ir.maxTokens) out.max_tokens = ir.maxTokens.v;
  else {
    out.max_tokens = DEFAULT_MAX_TOKENS;
    ctx.change(maxField(ctx.from), `Not set, but Messages requires max_tokens: ${DEFAULT_MAX_TOKENS} was filled in.`, 'max_tokens');
  }
  writeMessagesSystem(ir, out, ctx);
  out.messages = writeMessagesTurns(ir, ctx);
  if (ir.temperature) {
    if (ir.temperature.v > 1) {
      out.temperature = 1;
      ctx.change(ir.temperature.path, `${ir.temperature.v} is above Messages' range of 0–1: clamped to 1.`, 'temperature');
    } else out.temperature = ir.temperature.v;
  }
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) {
    out.stop_sequences = ir.stop.v;
    if (ir.stop.wasString) ctx.change(ir.stop.path, 'The stop string becomes a one-item stop_sequences list (and comes back as a list).', 'stop_sequences');
  }
  if (ir.stream) out.stream = ir.stream.v;
  if (ir.includeUsage) ctx.drop(ir.includeUsage.path, 'Messages streams always report usage: nothing to ask for.');
  if (ir.tools) {
    out.tools = ir.tools.map((t) => {
      const tool: Json = { name: t.name };
      if (t.description !== undefined) tool.description = t.description;
      if (t.schema !== undefined) tool.input_schema = t.schema;
      else {
        tool.input_schema = { type: 'object', properties: {} };
        ctx.change(t.path, 'Messages requires an input schema: an empty object schema was filled in.', 'input_schema');
      }
      const strict = strictFor(t, ctx);
      if (strict !== undefined) tool.strict = strict;
      return tool;
    });
  }
  writeMessagesToolChoice(ir, out, ctx);
  writeMessagesReasoning(ir, out, ctx);
  if (ir.format) writeMessagesFormat(ir.format, out, ctx);
  if (ir.user) out.metadata = { user_id: ir.user.v };
  if (ir.safetyIdentifier) {
    if (ir.user) ctx.drop(ir.safetyIdentifier.path, 'Messages has one end-user field (metadata.user_id), filled from user.');
    else {
      out.metadata = { user_id: ir.safetyIdentifier.v };
      ctx.change(ir.safetyIdentifier.path, "Messages' one end-user field is metadata.user_id; translating back writes it as user.", 'metadata.user_id');
    }
  }
  dropOpenAiOnly(ir, ctx);
  return out;
}

function writeMessagesSystem(ir: IR, out: Json, ctx: Ctx): void {
  const sys = systemTurns(ir);
  if (sys.length === 0) return;
  const leading = ir.turns.findIndex((t) => t.role !== 'system' && t.role !== 'developer');
  const leadCount = leading === -1 ? ir.turns.length : leading;
  for (const t of sys) {
    if (t.role === 'developer') {
      ctx.change(`${t.path}.role`, 'Messages has one system prompt and no developer role: it comes back as a system message.', 'system');
    }
  }
  if (sys.length === 1 && leadCount === 1) {
    const t = sys[0];
    out.system = typeof t.content === 'string' ? t.content : t.content.map((p) => textBlock(p, ctx)).filter((b) => b !== undefined);
    return;
  }
  const blocks: Json[] = [];
  sys.forEach((t, k) => {
    const moved = k >= leadCount;
    ctx.change(
      t.path,
      moved
        ? 'Messages has no system messages inside the conversation: this one moves into the top-level system prompt.'
        : `Merged with ${sys.length - 1} other system message${sys.length > 2 ? 's' : ''} into Messages' one system prompt.`,
      'system',
    );
    if (typeof t.content === 'string') blocks.push({ type: 'text', text: t.content });
    else for (const p of t.content) {
      const b = textBlock(p, ctx);
      if (b) blocks.push(b);
    }
  });
  out.system = blocks;
}

function textBlock(p: Part, ctx: Ctx): Json | undefined {
  if (p.type === 'text') return { type: 'text', text: p.text };
  ctx.drop(p.path, `Messages takes only text here, not ${p.type}.`);
  return undefined;
}

/** The only image media types Messages accepts (protocols.md §1.3); anything else is a 400 upstream. */
const MESSAGES_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

function writeMessagesPart(p: Part, ctx: Ctx): Json | undefined {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'refusal':
      ctx.drop(p.path, 'Messages has no refusal in earlier turns.');
      return undefined;
    case 'image': {
      const data = parseDataUrl(p.url);
      let source: Json;
      if (data) {
        if (!MESSAGES_IMAGE_TYPES.includes(data.mediaType)) {
          ctx.drop(p.path, `Messages takes only ${MESSAGES_IMAGE_TYPES.join(', ')} images; this one is ${data.mediaType}.`);
          return undefined;
        }
        source = { type: 'base64', media_type: data.mediaType, data: data.data };
      } else if (/^https?:\/\//i.test(p.url)) {
        source = { type: 'url', url: p.url };
      } else {
        ctx.drop(p.path, 'Messages takes images as base64 data or an http(s) URL; this one is neither.');
        return undefined;
      }
      if (p.detail) ctx.drop(p.detail.path, 'Messages has no image detail setting.');
      return { type: 'image', source };
    }
    case 'file': {
      const block: Json = { type: 'document' };
      if (p.data !== undefined) {
        const data = parseDataUrl(p.data);
        if (data && data.mediaType !== 'application/pdf') {
          ctx.drop(p.path, `Messages documents are PDFs or plain text; this file is ${data.mediaType}.`);
          return undefined;
        }
        if (!data) ctx.change(p.path, 'The file data has no media type: it is sent as a PDF.');
        block.source = { type: 'base64', media_type: 'application/pdf', data: data ? data.data : p.data };
      } else {
        block.source = { type: 'url', url: p.url };
      }
      if (p.filename) block.title = p.filename.v;
      return block;
    }
  }
}

function writeMessagesTurns(ir: IR, ctx: Ctx): Json[] {
  const messages: Json[] = [];
  const turns = ir.turns;
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    if (t.role === 'system' || t.role === 'developer') continue;
    if (t.role === 'user') {
      messages.push({ role: 'user', content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => writeMessagesPart(p, ctx))) });
      continue;
    }
    if (t.role === 'assistant') {
      messages.push({ role: 'assistant', content: writeMessagesAssistant(t, ctx) });
      continue;
    }
    // A run of tool results becomes one user turn; a following user turn with content blocks joins it,
    // as Messages wants the results first and allows text after them.
    const blocks: Json[] = [];
    let j = i;
    for (; j < turns.length; j++) {
      const r = turns[j];
      if (r.role !== 'tool') break;
      const block: Json = { type: 'tool_result', tool_use_id: r.callId };
      block.content = typeof r.output === 'string' ? r.output : compact(r.output.map((p) => writeMessagesPart(p, ctx)));
      blocks.push(block);
    }
    const next = turns[j];
    if (next && next.role === 'user' && Array.isArray(next.content)) {
      blocks.push(...compact(next.content.map((p) => writeMessagesPart(p, ctx))));
      j++;
    }
    messages.push({ role: 'user', content: blocks });
    i = j - 1;
  }
  return messages;
}

function writeMessagesAssistant(t: Extract<Turn, { role: 'assistant' }>, ctx: Ctx): unknown {
  if (typeof t.content === 'string' && t.calls.length === 0) return t.content;
  const blocks: Json[] = [];
  if (typeof t.content === 'string') {
    if (t.content === '') ctx.drop(t.contentPath, 'Messages rejects empty text blocks: the empty text is left out.');
    else {
      blocks.push({ type: 'text', text: t.content });
      ctx.change(t.contentPath, 'Messages needs a block list when a turn has tool calls: the text becomes a text block (and comes back as a list).');
    }
  } else if (t.content) {
    blocks.push(...compact(t.content.map((p) => writeMessagesPart(p, ctx))));
  }
  for (const c of t.calls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? toolInput(c, ctx) });
  if (blocks.length === 0) {
    ctx.change(t.contentPath, 'An empty assistant turn: sent as empty text.');
    return '';
  }
  return blocks;
}

/** Messages wants the arguments as an object; anything else cannot be sent as is. */
function toolInput(c: ToolCall, ctx: Ctx): Json {
  if (c.args.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(c.args);
  } catch {
    ctx.change(c.argsPath, 'The arguments are not valid JSON, and Messages needs an object: {} is sent.', 'input');
    return {};
  }
  if (!isObj(parsed)) {
    ctx.change(c.argsPath, 'The arguments are not a JSON object, and Messages needs one: {} is sent.', 'input');
    return {};
  }
  if (JSON.stringify(parsed) !== c.args) {
    ctx.change(c.argsPath, 'Messages keeps arguments as an object: their spacing and formatting are not kept.', 'input');
  }
  return parsed;
}

function writeMessagesToolChoice(ir: IR, out: Json, ctx: Ctx): void {
  let tc: Json | undefined;
  if (ir.toolChoice) {
    tc = { type: ir.toolChoice.v.mode };
    if (ir.toolChoice.v.name !== undefined) tc.name = ir.toolChoice.v.name;
  }
  if (ir.parallel) {
    if (!tc && !ir.tools?.length) {
      ctx.drop(ir.parallel.path, 'There are no tools, and Messages sets parallel calls on tool_choice.');
    } else if (tc?.type === 'none') {
      // Messages' tool_choice "none" is {type: "none"} alone: it rejects disable_parallel_tool_use there.
      ctx.drop(ir.parallel.path, 'Messages takes no parallel-call setting beside tool_choice "none" (no tool is called anyway).');
    } else {
      tc ??= { type: 'auto' };
      tc.disable_parallel_tool_use = !ir.parallel.v;
    }
  }
  if (tc) out.tool_choice = tc;
}

/**
 * What in the written request rules thinking out (protocols.md §1.5): Messages rejects thinking with a forced
 * tool, a temperature other than 1, a top_p outside 0.95–1, or a tool loop whose last assistant turn does not
 * open with its signed thinking block. Empty when thinking may be on.
 */
function thinkingConflicts(ir: IR, out: Json): string[] {
  const found: string[] = [];
  // No translated assistant turn has a thinking block (a signature cannot be recreated), and Messages demands one
  // only on the assistant turn whose tool calls the conversation is still answering: the last one.
  const lastAssistant = ir.turns.findLast((t) => t.role === 'assistant');
  if (lastAssistant && lastAssistant.role === 'assistant' && lastAssistant.calls.length > 0) {
    found.push(
      `the tool calls of ${lastAssistant.path} without the signed thinking block that led to them (continuing a tool loop with thinking needs that block echoed, and it cannot be recreated)`,
    );
  }
  if (ir.toolChoice && (ir.toolChoice.v.mode === 'any' || ir.toolChoice.v.mode === 'tool')) {
    const forced = ir.toolChoice.v.mode === 'tool' ? `tool "${ir.toolChoice.v.name}"` : 'tool call';
    found.push(`a forced ${forced} (${ir.toolChoice.path})`);
  }
  if (typeof out.temperature === 'number' && out.temperature !== 1) found.push(`temperature ${out.temperature} (only 1 is allowed with thinking)`);
  if (typeof out.top_p === 'number' && (out.top_p < 0.95 || out.top_p > 1)) found.push(`top_p ${out.top_p} (0.95–1 is allowed with thinking)`);
  return found;
}

function writeMessagesReasoning(ir: IR, out: Json, ctx: Ctx): void {
  const oc: Json = {};
  if (ir.effort) {
    const e = ir.effort.v;
    const conflicts = e === 'none' ? [] : thinkingConflicts(ir, out);
    if (e === 'none') out.thinking = { type: 'disabled' };
    else if (conflicts.length > 0) {
      // The settings the user wrote explicitly win over reasoning, which the request can do without.
      ctx.drop(
        ir.effort.path,
        `Messages rejects thinking together with ${conflicts.join(' and ')}: those are kept as you set them, and thinking (reasoning effort "${e}") is left out.`,
      );
    } else {
      out.thinking = { type: 'adaptive' };
      if (e === 'minimal') {
        oc.effort = 'low';
        ctx.change(ir.effort.path, 'Messages has no "minimal" effort: "low" is used.', 'output_config.effort');
      } else if (e !== 'high') oc.effort = e;
      // "high" is adaptive thinking's default depth: adaptive alone says it, and comes back as "high".
    }
  }
  if (ir.summary) {
    const thinking = out.thinking as Json | undefined;
    if (thinking && thinking.type === 'adaptive') {
      thinking.display = 'summarized';
      if (ir.summary.v !== 'auto') ctx.change(ir.summary.path, `Messages has one summary style: "${ir.summary.v}" becomes display "summarized".`, 'thinking.display');
    } else {
      ctx.drop(ir.summary.path, 'No thinking is sent to Messages, so there is nothing to summarise.');
    }
  }
  if (Object.keys(oc).length > 0) out.output_config = oc;
}

function writeMessagesFormat(f: Format, out: Json, ctx: Ctx): void {
  if (f.kind === 'text') {
    ctx.drop(f.path, 'Plain text is what Messages returns by default.');
    return;
  }
  if (f.kind === 'json_object') {
    ctx.drop(f.path, 'Messages has no JSON mode without a schema: give a json_schema, or ask for JSON in the prompt.');
    return;
  }
  const oc = (out.output_config as Json | undefined) ?? {};
  oc.format = { type: 'json_schema', schema: f.schema };
  out.output_config = oc;
  if (f.name) ctx.drop(f.name.path, "Messages' output format has no name.");
  if (f.description) ctx.drop(f.description.path, "Messages' output format has no description.");
  if (f.strict) ctx.drop(f.strict.path, 'Messages always enforces the schema: there is no strict flag.');
}

function compact<T>(list: (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}

// ---------------------------------------------------------------------------------------------------------
// neutral → Chat Completions

function writeChat(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  out.messages = writeChatMessages(ir, ctx);
  if (ir.maxTokens) out.max_completion_tokens = ir.maxTokens.v;
  if (ir.temperature) out.temperature = ir.temperature.v;
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) {
    out.stop = ir.stop.v.slice(0, CHAT_MAX_STOP);
    ir.stop.v.slice(CHAT_MAX_STOP).forEach((_, k) => {
      ctx.drop(`${ir.stop!.path}[${CHAT_MAX_STOP + k}]`, `Chat Completions accepts at most ${CHAT_MAX_STOP} stop sequences.`);
    });
  }
  if (ir.stream) out.stream = ir.stream.v;
  const so: Json = {};
  if (ir.includeUsage) so.include_usage = ir.includeUsage.v;
  else if (ir.stream?.v === true) {
    so.include_usage = true;
    ctx.change(ir.stream.path, 'stream_options.include_usage was added: without it a streamed Chat answer reports no usage.', 'stream_options.include_usage');
  }
  if (ir.includeObfuscation) so.include_obfuscation = ir.includeObfuscation.v;
  if (Object.keys(so).length > 0) out.stream_options = so;
  if (ir.tools) {
    out.tools = ir.tools.map((t) => {
      const fn: Json = { name: t.name };
      if (t.description !== undefined) fn.description = t.description;
      if (t.schema !== undefined) fn.parameters = t.schema;
      const strict = strictFor(t, ctx);
      if (strict !== undefined) fn.strict = strict;
      return { type: 'function', function: fn };
    });
  }
  if (ir.toolChoice) {
    const { mode, name } = ir.toolChoice.v;
    out.tool_choice = mode === 'tool' ? { type: 'function', function: { name } } : mode === 'any' ? 'required' : mode;
  }
  if (ir.parallel) out.parallel_tool_calls = ir.parallel.v;
  if (ir.effort) out.reasoning_effort = ir.effort.v;
  if (ir.summary) ctx.drop(ir.summary.path, 'Chat Completions returns no reasoning summary.');
  if (ir.display) ctx.drop(ir.display.path, 'Chat Completions shows no reasoning, so there is no display setting.');
  if (ir.format) out.response_format = writeOpenAiFormat(ir.format, ctx, 'chat');
  if (ir.verbosity) out.verbosity = ir.verbosity.v;
  carryOpenAiCommon(ir, out);
  if (ir.logprobs) out.logprobs = ir.logprobs.v;
  return out;
}

function writeChatMessages(ir: IR, ctx: Ctx): Json[] {
  return ir.turns.map((t): Json => {
    switch (t.role) {
      case 'system':
      case 'developer':
        return { role: t.role, content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => chatPart(p, ctx))) };
      case 'user':
        return { role: 'user', content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => chatPart(p, ctx))) };
      case 'assistant': {
        let content: unknown = null;
        if (typeof t.content === 'string') content = t.content;
        else if (t.content && t.content.length > 0) content = compact(t.content.map((p) => chatPart(p, ctx)));
        const msg: Json = { role: 'assistant', content };
        if (t.calls.length > 0) {
          msg.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
        }
        return msg;
      }
      case 'tool': {
        let content: unknown = t.output;
        if (Array.isArray(t.output)) {
          const parts = compact(
            t.output.map((p) => {
              if (p.type === 'text') return { type: 'text', text: p.text };
              ctx.drop(p.path, `Chat Completions tool messages carry text only, not ${p.type === 'image' ? 'images' : 'files'}.`);
              return undefined;
            }),
          );
          content = parts.length > 0 ? parts : '';
        }
        return { role: 'tool', tool_call_id: t.callId, content };
      }
    }
  });
}

function chatPart(p: Part, ctx: Ctx): Json | undefined {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'refusal':
      return { type: 'refusal', refusal: p.text };
    case 'image': {
      const img: Json = { url: p.url };
      if (p.detail?.v === 'original') {
        img.detail = 'high';
        ctx.change(p.detail.path, 'Chat Completions has no "original" image detail (only auto, low and high): "high", its most detailed level, is used.', 'image_url.detail');
      } else if (p.detail) img.detail = p.detail.v;
      return { type: 'image_url', image_url: img };
    }
    case 'file': {
      if (p.data === undefined) {
        ctx.drop(p.path, 'Chat Completions file parts take inline data or a file id, not a URL.');
        return undefined;
      }
      const file: Json = { file_data: p.data };
      if (p.filename) file.filename = p.filename.v;
      return { type: 'file', file };
    }
  }
}

function writeOpenAiFormat(f: Format, ctx: Ctx, to: 'chat' | 'responses'): Json {
  if (f.kind !== 'json_schema') return { type: f.kind };
  const spec: Json = { name: f.name?.v ?? DEFAULT_SCHEMA_NAME, schema: f.schema };
  if (f.description) spec.description = f.description.v;
  // Messages always constrains output to the schema: strict is its equivalent.
  if (f.strict) spec.strict = f.strict.v;
  else if (ctx.from === 'messages') spec.strict = true;
  return to === 'chat' ? { type: 'json_schema', json_schema: spec } : { type: 'json_schema', ...spec };
}

// ---------------------------------------------------------------------------------------------------------
// neutral → Responses

function writeResponses(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  const first = ir.turns[0];
  let turns = ir.turns;
  if (first && first.role === 'system' && typeof first.content === 'string') {
    out.instructions = first.content;
    turns = turns.slice(1);
  }
  out.input = writeResponsesItems(turns, ctx);
  if (ir.maxTokens) {
    if (ir.maxTokens.v < RESPONSES_MIN_OUTPUT_TOKENS) {
      out.max_output_tokens = RESPONSES_MIN_OUTPUT_TOKENS;
      ctx.change(ir.maxTokens.path, `${ir.maxTokens.v} is below Responses' minimum of ${RESPONSES_MIN_OUTPUT_TOKENS}: raised to ${RESPONSES_MIN_OUTPUT_TOKENS}.`, 'max_output_tokens');
    } else out.max_output_tokens = ir.maxTokens.v;
  }
  if (ir.temperature) out.temperature = ir.temperature.v;
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) ctx.drop(ir.stop.path, 'Responses has no stop sequences.');
  if (ir.stream) out.stream = ir.stream.v;
  if (ir.includeUsage) ctx.drop(ir.includeUsage.path, 'Responses always reports usage (in response.completed): nothing to ask for.');
  if (ir.includeObfuscation) out.stream_options = { include_obfuscation: ir.includeObfuscation.v };
  if (ir.tools) {
    out.tools = ir.tools.map((t) => {
      const tool: Json = { type: 'function', name: t.name };
      if (t.description !== undefined) tool.description = t.description;
      tool.parameters = t.schema ?? null;
      tool.strict = strictFor(t, ctx);
      return tool;
    });
  }
  if (ir.toolChoice) {
    const { mode, name } = ir.toolChoice.v;
    out.tool_choice = mode === 'tool' ? { type: 'function', name } : mode === 'any' ? 'required' : mode;
  }
  if (ir.parallel) out.parallel_tool_calls = ir.parallel.v;
  const reasoning: Json = {};
  if (ir.effort) {
    if (ir.effort.v === 'max') {
      reasoning.effort = 'xhigh';
      ctx.change(ir.effort.path, 'Responses has no "max" effort: "xhigh" is used.', 'reasoning.effort');
    } else reasoning.effort = ir.effort.v;
  }
  if (ir.summary) reasoning.summary = ir.summary.v;
  if (ir.display) {
    if (ir.display.v === 'summarized') reasoning.summary = 'auto';
    else ctx.drop(ir.display.path, 'Responses shows no reasoning summary unless asked, which is the same as "omitted".');
  }
  if (Object.keys(reasoning).length > 0) out.reasoning = reasoning;
  const text: Json = {};
  if (ir.format) text.format = writeOpenAiFormat(ir.format, ctx, 'responses');
  if (ir.verbosity) text.verbosity = ir.verbosity.v;
  if (Object.keys(text).length > 0) out.text = text;
  if (ir.logprobs) {
    if (ir.logprobs.v) out.include = [LOGPROBS_INCLUDE];
    else ctx.drop(ir.logprobs.path, 'false is the default: Responses leaves log probabilities out unless included.');
  }
  carryOpenAiCommon(ir, out);
  return out;
}

function writeResponsesItems(turns: Turn[], ctx: Ctx): Json[] {
  const items: Json[] = [];
  for (const t of turns) {
    switch (t.role) {
      case 'system':
      case 'developer':
      case 'user':
        items.push({ type: 'message', role: t.role, content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => responsesPart(p, ctx, 'input'))) });
        break;
      case 'assistant': {
        const hasText = typeof t.content === 'string' || (t.content !== null && t.content.length > 0);
        if (hasText) {
          const content = typeof t.content === 'string' ? t.content : compact(t.content!.map((p) => responsesPart(p, ctx, 'output')));
          items.push({ type: 'message', role: 'assistant', content });
        }
        for (const c of t.calls) items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.args });
        break;
      }
      case 'tool':
        items.push({
          type: 'function_call_output',
          call_id: t.callId,
          output: typeof t.output === 'string' ? t.output : compact(t.output.map((p) => responsesPart(p, ctx, 'input'))),
        });
        break;
    }
  }
  return items;
}

function responsesPart(p: Part, ctx: Ctx, side: 'input' | 'output'): Json | undefined {
  switch (p.type) {
    case 'text':
      return side === 'output' ? { type: 'output_text', text: p.text } : { type: 'input_text', text: p.text };
    case 'refusal':
      return { type: 'refusal', refusal: p.text };
    case 'image':
      // detail is required by the Responses schema; "auto" is what the other protocols do.
      return { type: 'input_image', image_url: p.url, detail: p.detail?.v ?? 'auto' };
    case 'file': {
      const file: Json = { type: 'input_file' };
      if (p.data !== undefined) file.file_data = p.data;
      else file.file_url = p.url;
      if (p.filename) file.filename = p.filename.v;
      return file;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------

/** A final assistant turn means "continue this text" in Messages and "an earlier answer" elsewhere. */
function notePrefill(ir: IR, ctx: Ctx): void {
  if (ctx.from !== 'messages' && ctx.to !== 'messages') return;
  const last = ir.turns[ir.turns.length - 1];
  if (!last || last.role !== 'assistant' || last.calls.length > 0) return;
  ctx.change(
    last.path,
    ctx.from === 'messages'
      ? `A final assistant turn is a prefill in Messages (the reply continues it); ${ctx.target} treats it as a finished earlier turn.`
      : `A final assistant turn becomes a prefill in Messages: the reply continues this text, where ${ctx.source} treats it as a finished turn.`,
  );
}

const READERS: Record<ProtocolId, (b: Json, ctx: Ctx) => IR> = { messages: readMessages, chat: readChat, responses: readResponses };
const WRITERS: Record<ProtocolId, (ir: IR, ctx: Ctx) => Json> = { messages: writeMessages, chat: writeChat, responses: writeResponses };

/**
 * Translates a request body from one protocol's shape to another's, with the list of what could not be
 * carried (or was changed on the way). A malformed request is refused with the reason.
 */
export function translateRequest(from: ProtocolId, to: ProtocolId, body: Record<string, unknown>): TranslateResult {
  if (!(from in READERS) || !(to in READERS)) return { ok: false, reason: `Unknown protocol: ${!(from in READERS) ? from : to}.` };
  if (!isObj(body)) return { ok: false, reason: 'The request is not a JSON object.' };
  if (from === to) return { ok: true, body: structuredClone(body), losses: [] };
  const ctx = new Ctx(from, to);
  try {
    const ir = READERS[from](body, ctx);
    notePrefill(ir, ctx);
    const out = WRITERS[to](ir, ctx);
    return { ok: true, body: out, losses: ctx.losses };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, reason: `Cannot translate this ${PROTOCOL_LABELS[from]} request: ${err.message}` };
    throw err;
  }
}

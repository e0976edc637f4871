/** Messages requests (docs/protocols.md §1.2), read into the neutral shape and written from it. */
import {
  asArr,
  asObj,
  asStr,
  boolF,
  compact,
  type Ctx,
  type Format,
  Invalid,
  type IR,
  isObj,
  type Json,
  maxField,
  notTranslatedBlock,
  numF,
  oneOf,
  type Part,
  present,
  strF,
  strictFor,
  systemTurns,
  type Tool,
  type ToolCall,
  type Turn,
  typeOf,
} from './ir';
import { readMessagesReasoning, writeMessagesReasoning } from './thinking';
import {
  readMessagesPart,
  readMessagesText,
  readMessagesToolResult,
  textBlock,
  writeMessagesPart,
} from './messages-content';

/** Messages requires max_tokens; Chat and Responses may leave it out. */
export const DEFAULT_MAX_TOKENS = 4096;

const MESSAGES_TOP = [
  'model',
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
  'cache_control',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
];

export function readMessages(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', MESSAGES_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  ir.maxTokens = numF(b, 'max_tokens', '');
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (present(b.top_k)) ctx.lose('top_k', `${ctx.target} has no top_k sampling.`);
  if (present(b.stop_sequences)) {
    const list = asArr(b.stop_sequences, 'stop_sequences').map((s, i) => asStr(s, `stop_sequences[${i}]`));
    ir.stop = { v: list, path: 'stop_sequences', wasString: false };
  }
  if (present(b.cache_control)) ctx.noCache('cache_control');
  if (present(b.service_tier)) {
    ctx.lose(
      'service_tier',
      `The two families' service tiers mean different things: set ${ctx.target}'s service_tier by hand if needed.`,
    );
  }
  for (const key of ['container', 'mcp_servers', 'context_management']) {
    if (present(b[key])) ctx.lose(key, `A Messages-only feature: ${ctx.target} has no ${key}.`);
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
    if (typeOf(o, path) !== 'text')
      throw new Invalid(`${path} is a "${String(o.type)}" block: system blocks must be text.`);
    return readMessagesText(o, path, ctx);
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
    ir.turns.push(
      o.role === 'user'
        ? { role: 'user', content: o.content, path }
        : { role: 'assistant', content: o.content, calls: [], path, contentPath },
    );
    return;
  }
  if (!Array.isArray(o.content)) throw new Invalid(`${contentPath} must be a string or a list of content blocks.`);
  if (o.role === 'assistant') ir.turns.push(readMessagesAssistant(o.content, path, ctx));
  else ir.turns.push(...readMessagesUser(o.content, path, ctx));
}

function readMessagesAssistant(blocks: unknown[], path: string, ctx: Ctx): Turn {
  const contentPath = `${path}.content`;
  const parts: Part[] = [];
  const calls: ToolCall[] = [];
  blocks.forEach((block, j) => {
    const bp = `${contentPath}[${j}]`;
    const bo = asObj(block, bp);
    const type = typeOf(bo, bp);
    if (type === 'text') {
      const part = readMessagesText(bo, bp, ctx);
      if (calls.length > 0)
        ctx.change(
          bp,
          `${ctx.target} puts an assistant turn's text before its tool calls: this text moves ahead of them.`,
        );
      parts.push(part);
    } else if (type === 'tool_use') {
      calls.push(readMessagesToolUse(bo, bp, ctx));
    } else if (type === 'thinking' || type === 'redacted_thinking') {
      ctx.lose(
        bp,
        `${ctx.target} has no thinking blocks and their signatures cannot be recreated, so thinking starts over ` +
          `after this turn.`,
      );
    } else if (type === 'server_tool_use' || type.endsWith('_tool_result')) {
      ctx.lose(bp, `A server-tool block (${type}): ${ctx.target} has no equivalent.`);
    } else {
      notTranslatedBlock(bp, type, ctx);
    }
  });
  return { role: 'assistant', content: parts, calls, path, contentPath };
}

function readMessagesToolUse(bo: Json, bp: string, ctx: Ctx): ToolCall {
  ctx.keys(bo, bp, ['type', 'id', 'name', 'input', 'cache_control']);
  if (present(bo.cache_control)) ctx.noCache(`${bp}.cache_control`);
  const input = bo.input === undefined ? {} : asObj(bo.input, `${bp}.input`);
  const id = asStr(bo.id, `${bp}.id`);
  return { id, name: asStr(bo.name, `${bp}.name`), input, args: JSON.stringify(input), argsPath: `${bp}.input` };
}

/**
 * A user turn: tool results become tool turns of their own (Chat tool messages / Responses outputs); the rest
 * of the turn follows them.
 */
function readMessagesUser(blocks: unknown[], path: string, ctx: Ctx): Turn[] {
  const contentPath = `${path}.content`;
  const rest: Part[] = [];
  const results: Turn[] = [];
  blocks.forEach((block, j) => {
    const bp = `${contentPath}[${j}]`;
    const bo = asObj(block, bp);
    const type = typeOf(bo, bp);
    if (type === 'tool_result') {
      if (rest.length > 0)
        ctx.change(
          bp,
          `${ctx.target} needs tool results right after the tool calls: this result moves ahead of the text before it.`,
        );
      results.push(readMessagesToolResult(bo, bp, ctx));
      return;
    }
    const part = readMessagesPart(bo, bp, type, ctx);
    if (part) rest.push(part);
  });
  return rest.length > 0 || results.length === 0 ? [...results, { role: 'user', content: rest, path }] : results;
}

function readMessagesTools(tools: unknown, ctx: Ctx): Tool[] {
  const out: Tool[] = [];
  asArr(tools, 'tools').forEach((t, i) => {
    const path = `tools[${i}]`;
    const o = asObj(t, path);
    if (present(o.type) && o.type !== 'custom') {
      ctx.lose(path, `A server tool (${String(o.type)}): ${ctx.target} has no equivalent.`);
      return;
    }
    ctx.keys(o, path, ['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);
    if (o.type === 'custom')
      ctx.lose(`${path}.type`, `"custom" is implied for client tools; ${ctx.target} writes function tools.`);
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
  ir.toolChoice = {
    v: { mode: type, name: type === 'tool' ? asStr(o.name, 'tool_choice.name') : undefined },
    path: 'tool_choice',
  };
  const disable = boolF(o, 'disable_parallel_tool_use', 'tool_choice');
  if (disable) ir.parallel = { v: !disable.v, path: disable.path };
}

function dropOpenAiOnly(ir: IR, ctx: Ctx): void {
  if (ir.metadata) ctx.lose(ir.metadata.path, "Messages' metadata takes only user_id, not a map.");
  if (ir.store) ctx.lose(ir.store.path, 'Messages stores nothing server-side (no store).');
  if (ir.promptCacheKey) ctx.lose(ir.promptCacheKey.path, 'Messages caches by cache_control marks, not a cache key.');
  if (ir.promptCacheRetention)
    ctx.lose(
      ir.promptCacheRetention.path,
      'Messages sets cache lifetime per cache_control mark (ttl), not per request.',
    );
  if (ir.serviceTier)
    ctx.lose(
      ir.serviceTier.path,
      "The two families' service tiers mean different things: set Messages' service_tier by hand if needed.",
    );
  if (ir.logprobs) ctx.lose(ir.logprobs.path, 'Messages returns no log probabilities.');
  if (ir.topLogprobs) ctx.lose(ir.topLogprobs.path, 'Messages returns no log probabilities.');
  if (ir.verbosity) ctx.lose(ir.verbosity.path, 'Messages has no verbosity setting.');
  if (ir.includeObfuscation) ctx.lose(ir.includeObfuscation.path, 'Messages streams have no obfuscation padding.');
}

export function writeMessages(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  if (ir.maxTokens) out.max_tokens = ir.maxTokens.v;
  else {
    out.max_tokens = DEFAULT_MAX_TOKENS;
    ctx.add(
      maxField(ctx.from),
      `Not set, but Messages requires max_tokens: ${DEFAULT_MAX_TOKENS} is filled in.`,
      'max_tokens',
    );
  }
  writeMessagesSystem(ir, out, ctx);
  out.messages = writeMessagesTurns(ir, ctx);
  if (ir.temperature) {
    if (ir.temperature.v > 1) {
      out.temperature = 1;
      ctx.change(
        ir.temperature.path,
        `${ir.temperature.v} is above Messages' range of 0–1: clamped to 1.`,
        'temperature',
      );
    } else out.temperature = ir.temperature.v;
  }
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) {
    out.stop_sequences = ir.stop.v;
    if (ir.stop.wasString)
      ctx.change(
        ir.stop.path,
        'The stop string becomes a one-item stop_sequences list (and comes back as a list).',
        'stop_sequences',
      );
  }
  if (ir.stream) out.stream = ir.stream.v;
  if (ir.includeUsage) ctx.lose(ir.includeUsage.path, 'Messages streams always report usage: nothing to ask for.');
  if (ir.tools) {
    out.tools = ir.tools.map((t, k) => {
      const tool: Json = { name: t.name };
      if (t.description !== undefined) tool.description = t.description;
      if (t.schema !== undefined) tool.input_schema = t.schema;
      else {
        tool.input_schema = { type: 'object', properties: {} };
        ctx.add(
          t.path,
          'Messages requires an input schema: an empty object schema is filled in.',
          `tools[${k}].input_schema`,
        );
      }
      const strict = strictFor(t, ctx, `tools[${k}].strict`);
      if (strict !== undefined) tool.strict = strict;
      return tool;
    });
  }
  writeMessagesToolChoice(ir, out, ctx);
  writeMessagesReasoning(ir, out, ctx);
  if (ir.format) writeMessagesFormat(ir.format, out, ctx);
  if (ir.user) out.metadata = { user_id: ir.user.v };
  if (ir.safetyIdentifier) {
    if (ir.user)
      ctx.lose(ir.safetyIdentifier.path, 'Messages has one end-user field (metadata.user_id), filled from user.');
    else {
      out.metadata = { user_id: ir.safetyIdentifier.v };
      ctx.change(
        ir.safetyIdentifier.path,
        "Messages' one end-user field is metadata.user_id; translating back writes it as user.",
        'metadata.user_id',
      );
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
      ctx.change(
        `${t.path}.role`,
        'Messages has one system prompt and no developer role: it comes back as a system message.',
        'system',
      );
    }
  }
  if (sys.length === 1 && leadCount === 1) {
    const t = sys[0];
    out.system =
      typeof t.content === 'string'
        ? t.content
        : t.content.map((p) => textBlock(p, ctx)).filter((b) => b !== undefined);
    return;
  }
  const blocks: Json[] = [];
  sys.forEach((t, k) => {
    const moved = k >= leadCount;
    ctx.change(
      t.path,
      moved
        ? 'Messages has no system messages inside the conversation: this one moves into the top-level system prompt.'
        : `Merged with ${sys.length - 1} other system message${sys.length > 2 ? 's' : ''} into Messages' one ` +
            `system prompt.`,
      'system',
    );
    if (typeof t.content === 'string') blocks.push({ type: 'text', text: t.content });
    else
      for (const p of t.content) {
        const b = textBlock(p, ctx);
        if (b) blocks.push(b);
      }
  });
  out.system = blocks;
}

function writeMessagesTurns(ir: IR, ctx: Ctx): Json[] {
  const messages: Json[] = [];
  const turns = ir.turns;
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    if (t.role === 'system' || t.role === 'developer') continue;
    if (t.role === 'user') {
      messages.push({
        role: 'user',
        content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => writeMessagesPart(p, ctx))),
      });
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
    if (t.content === '') ctx.lose(t.contentPath, 'Messages rejects empty text blocks: the empty text is left out.');
    else {
      blocks.push({ type: 'text', text: t.content });
      ctx.change(
        t.contentPath,
        'Messages needs a block list when a turn has tool calls: the text becomes a text block (and comes back as ' +
          'a list).',
      );
    }
  } else if (t.content) {
    blocks.push(...compact(t.content.map((p) => writeMessagesPart(p, ctx))));
  }
  for (const c of t.calls)
    blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? toolInput(c, ctx) });
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
    ctx.change(
      c.argsPath,
      'Messages keeps arguments as an object: their spacing and formatting are not kept.',
      'input',
    );
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
      ctx.lose(ir.parallel.path, 'There are no tools, and Messages sets parallel calls on tool_choice.');
    } else if (tc?.type === 'none') {
      // Messages' tool_choice "none" is {type: "none"} alone: it rejects disable_parallel_tool_use there.
      ctx.lose(
        ir.parallel.path,
        'Messages takes no parallel-call setting beside tool_choice "none" (no tool is called anyway).',
      );
    } else {
      tc ??= { type: 'auto' };
      tc.disable_parallel_tool_use = !ir.parallel.v;
    }
  }
  if (tc) out.tool_choice = tc;
}

function writeMessagesFormat(f: Format, out: Json, ctx: Ctx): void {
  if (f.kind === 'text') {
    ctx.lose(f.path, 'Plain text is what Messages returns by default.');
    return;
  }
  if (f.kind === 'json_object') {
    ctx.lose(f.path, 'Messages has no JSON mode without a schema: give a json_schema, or ask for JSON in the prompt.');
    return;
  }
  const oc = (out.output_config as Json | undefined) ?? {};
  oc.format = { type: 'json_schema', schema: f.schema };
  out.output_config = oc;
  if (f.name) ctx.lose(f.name.path, "Messages' output format has no name.");
  if (f.description) ctx.lose(f.description.path, "Messages' output format has no description.");
  if (f.strict) ctx.lose(f.strict.path, 'Messages always enforces the schema: there is no strict flag.');
}

/** Messages requests written from the neutral shape (docs/protocols.md §1.2); messages.ts reads them. */
import {
  compact,
  type Ctx,
  type Format,
  type IR,
  isObj,
  type Json,
  maxField,
  strictFor,
  systemTurns,
  type Tool,
  type ToolCall,
  type Turn,
} from './ir';
import { writeMessagesReasoning } from './thinking';
import { textBlock, writeMessagesPart } from './messages-content';

/** Messages requires max_tokens; Chat and Responses may leave it out. */
export const DEFAULT_MAX_TOKENS = 4096;

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
  writeMessagesMaxTokens(ir, out, ctx);
  writeMessagesSystem(ir, out, ctx);
  out.messages = writeMessagesTurns(ir, ctx);
  writeMessagesSampling(ir, out, ctx);
  if (ir.tools) out.tools = writeMessagesTools(ir.tools, ctx);
  writeMessagesToolChoice(ir, out, ctx);
  writeMessagesReasoning(ir, out, ctx);
  if (ir.format) writeMessagesFormat(ir.format, out, ctx);
  writeMessagesEndUser(ir, out, ctx);
  dropOpenAiOnly(ir, ctx);
  return out;
}

function writeMessagesMaxTokens(ir: IR, out: Json, ctx: Ctx): void {
  if (ir.maxTokens) {
    out.max_tokens = ir.maxTokens.v;
    return;
  }
  out.max_tokens = DEFAULT_MAX_TOKENS;
  ctx.add(
    maxField(ctx.from),
    `Not set, but Messages requires max_tokens: ${DEFAULT_MAX_TOKENS} is filled in.`,
    'max_tokens',
  );
}

/** Temperature, top_p, stop sequences and streaming. */
function writeMessagesSampling(ir: IR, out: Json, ctx: Ctx): void {
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
}

function writeMessagesTools(tools: Tool[], ctx: Ctx): Json[] {
  return tools.map((t, k) => {
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

/** Messages' one end-user field, metadata.user_id: from user, else from safety_identifier. */
function writeMessagesEndUser(ir: IR, out: Json, ctx: Ctx): void {
  if (ir.user) out.metadata = { user_id: ir.user.v };
  if (!ir.safetyIdentifier) return;
  if (ir.user) {
    ctx.lose(ir.safetyIdentifier.path, 'Messages has one end-user field (metadata.user_id), filled from user.');
    return;
  }
  out.metadata = { user_id: ir.safetyIdentifier.v };
  ctx.change(
    ir.safetyIdentifier.path,
    "Messages' one end-user field is metadata.user_id; translating back writes it as user.",
    'metadata.user_id',
  );
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
      const content = writeMessagesAssistant(t, ctx);
      if (content === undefined) ctx.emptyTurn(t.path);
      else messages.push({ role: 'assistant', content });
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

/** The turn's content: its text, or a block list; undefined when nothing is left to send. */
function writeMessagesAssistant(t: Extract<Turn, { role: 'assistant' }>, ctx: Ctx): unknown {
  if (typeof t.content === 'string' && t.calls.length === 0) return t.content === '' ? undefined : t.content;
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
  return blocks.length > 0 ? blocks : undefined;
}

/** Messages wants the arguments as an object; anything else cannot be sent as is. */
function toolInput(c: ToolCall, ctx: Ctx): Json {
  if (c.args.trim() === '') {
    ctx.change(
      c.argsPath,
      'Empty arguments: Messages needs an object, so {} is sent (and comes back as "{}").',
      'input',
    );
    return {};
  }
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
      tc ??= autoToolChoice(ir.parallel.path, ctx);
      tc.disable_parallel_tool_use = !ir.parallel.v;
    }
  }
  if (tc) out.tool_choice = tc;
}

/** Messages says parallel calls on tool_choice, which needs a type: "auto" is what the source did without one. */
function autoToolChoice(parallelPath: string, ctx: Ctx): Json {
  ctx.add(
    parallelPath,
    `Messages sets parallel calls on tool_choice, which needs a type: "auto" (what ${ctx.source} does with tools and ` +
      `no tool_choice) is filled in, and comes back as tool_choice "auto".`,
    'tool_choice.type',
  );
  return { type: 'auto' };
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
  // output_config.format is a schema (docs/protocols.md §1.6): without one there is nothing to send.
  if (f.schema === undefined) {
    ctx.lose(
      f.path,
      "A JSON schema format without a schema: Messages' structured output needs one, so no output format is " +
        'sent. Add the schema, or ask for JSON in the prompt.',
    );
    return;
  }
  const oc = (out.output_config as Json | undefined) ?? {};
  oc.format = { type: 'json_schema', schema: f.schema };
  out.output_config = oc;
  if (f.name) ctx.lose(f.name.path, "Messages' output format has no name.");
  if (f.description) ctx.lose(f.description.path, "Messages' output format has no description.");
  if (f.strict) ctx.lose(f.strict.path, 'Messages always enforces the schema: there is no strict flag.');
}

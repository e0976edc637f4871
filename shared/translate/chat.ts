/** Chat Completions requests (docs/protocols.md §3.2), read into the neutral shape and written from it. */
import { base64Text } from '../documents';
import {
  asArr,
  asObj,
  asStr,
  boolF,
  compact,
  type Ctx,
  EFFORTS,
  Invalid,
  type IR,
  type Json,
  maxField,
  notTranslatedBlock,
  numF,
  oneOf,
  parseDataUrl,
  type Part,
  present,
  strF,
  strictFor,
  type Tool,
  type ToolCall,
  readParts,
  readTools,
  type Turn,
} from './ir';
import { carryOpenAiCommon, readOpenAiCommon, readOpenAiToolChoice, writeOpenAiFormat } from './openai';

/** Chat Completions accepts at most this many stop sequences upstream. */
export const CHAT_MAX_STOP = 4;

const CHAT_TOP = [
  'model',
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'verbosity',
  'metadata',
  'store',
  'prompt_cache_key',
  'prompt_cache_retention',
  'user',
  'safety_identifier',
  'service_tier',
  'logprobs',
  'top_logprobs',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'n',
  'logit_bias',
  'modalities',
  'audio',
  'prediction',
  'web_search_options',
  'functions',
  'function_call',
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

export function readChat(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', CHAT_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  const mct = numF(b, 'max_completion_tokens', '');
  const legacy = numF(b, 'max_tokens', '');
  if (mct) {
    ir.maxTokens = mct;
    if (legacy) ctx.lose('max_tokens', 'The deprecated max_tokens is ignored when max_completion_tokens is set.');
  } else if (legacy) {
    ir.maxTokens = legacy;
    ctx.change(
      'max_tokens',
      `Chat's deprecated name for the output cap: it becomes ${maxField(ctx.to)}, and translating back writes ` +
        `max_completion_tokens.`,
      maxField(ctx.to),
    );
  }
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (typeof b.stop === 'string') ir.stop = { v: [b.stop], path: 'stop', wasString: true };
  else if (present(b.stop))
    ir.stop = { v: asArr(b.stop, 'stop').map((s, i) => asStr(s, `stop[${i}]`)), path: 'stop', wasString: false };
  if (present(b.stream_options)) {
    const so = asObj(b.stream_options, 'stream_options');
    ctx.keys(so, 'stream_options', ['include_usage', 'include_obfuscation']);
    ir.includeUsage = boolF(so, 'include_usage', 'stream_options');
    ir.includeObfuscation = boolF(so, 'include_obfuscation', 'stream_options');
  }
  for (const [key, what] of Object.entries(CHAT_ONLY)) {
    if (present(b[key])) ctx.lose(key, `${ctx.target} ${what}.`);
  }
  readOpenAiCommon(b, ir);
  ir.logprobs = boolF(b, 'logprobs', '');
  ir.verbosity = strF(b, 'verbosity', '');
  if (present(b.reasoning_effort))
    ir.effort = { v: oneOf(b.reasoning_effort, 'reasoning_effort', EFFORTS), path: 'reasoning_effort' };
  if (b.messages === undefined) throw new Invalid('messages is missing.');
  asArr(b.messages, 'messages').forEach((m, i) => readChatMessage(m, `messages[${i}]`, ir, ctx));
  if (present(b.tools)) ir.tools = readTools(b.tools, (o, path) => readChatTool(o, path, ctx));
  if (present(b.tool_choice)) readOpenAiToolChoice(b.tool_choice, ir, ctx, 'chat');
  ir.parallel = boolF(b, 'parallel_tool_calls', '');
  if (present(b.response_format)) readChatFormat(b.response_format, ir, ctx);
  return ir;
}

function readChatMessage(m: unknown, path: string, ir: IR, ctx: Ctx): void {
  const o = asObj(m, path);
  const role = o.role;
  const contentPath = `${path}.content`;
  if (present(o.name) && role !== 'tool' && role !== 'function') {
    ctx.lose(`${path}.name`, `${ctx.target} has no participant names on messages.`);
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
      ir.turns.push({
        role: 'user',
        content: readChatContent(o.content, contentPath, ctx, ['text', 'image_url', 'file', 'input_audio']),
        path,
      });
      return;
    }
    case 'assistant':
      ir.turns.push(readChatAssistant(o, path, ctx));
      return;
    case 'tool': {
      ctx.keys(o, path, ['role', 'content', 'tool_call_id']);
      const output = readChatContent(o.content ?? '', contentPath, ctx, ['text']);
      ir.turns.push({ role: 'tool', callId: asStr(o.tool_call_id, `${path}.tool_call_id`), output, path });
      return;
    }
    case 'function':
      ctx.lose(path, `A legacy function-result message: ${ctx.target} only takes tool results.`);
      return;
    default:
      throw new Invalid(`${path}.role must be one of "system", "developer", "user", "assistant", "tool".`);
  }
}

function readChatAssistant(o: Json, path: string, ctx: Ctx): Turn {
  const contentPath = `${path}.content`;
  const known = ['role', 'content', 'tool_calls', 'refusal', 'name', 'audio', 'function_call', 'reasoning_content'];
  ctx.keys(o, path, known, ['content']);
  let content: string | Part[] | null = present(o.content)
    ? readChatContent(o.content, contentPath, ctx, ['text', 'refusal'])
    : null;
  if (present(o.refusal)) {
    const text = asStr(o.refusal, `${path}.refusal`);
    if (ctx.to === 'messages') {
      ctx.lose(`${path}.refusal`, 'Messages has no refusal in earlier turns.');
    } else {
      ctx.change(`${path}.refusal`, 'Becomes a refusal content part of the assistant message (and comes back as one).');
      const part: Part = { type: 'refusal', text, path: `${path}.refusal` };
      content =
        content === null
          ? [part]
          : typeof content === 'string'
            ? [{ type: 'text', text: content, path: contentPath }, part]
            : [...content, part];
    }
  }
  if (present(o.audio)) ctx.lose(`${path}.audio`, `${ctx.target} has no audio replies.`);
  if (present(o.function_call))
    ctx.lose(`${path}.function_call`, `A legacy function_call: ${ctx.target} only takes tool calls.`);
  if (present(o.reasoning_content)) {
    ctx.lose(
      `${path}.reasoning_content`,
      `A gateway extension (visible reasoning): ${ctx.target} cannot take it back as reasoning.`,
    );
  }
  const calls = present(o.tool_calls) ? readChatToolCalls(o.tool_calls, `${path}.tool_calls`, ctx) : [];
  return { role: 'assistant', content, calls, path, contentPath };
}

function readChatToolCalls(list: unknown, path: string, ctx: Ctx): ToolCall[] {
  const calls: ToolCall[] = [];
  asArr(list, path).forEach((c, j) => {
    const cp = `${path}[${j}]`;
    const co = asObj(c, cp);
    if (present(co.type) && co.type !== 'function') {
      ctx.lose(cp, `A "${String(co.type)}" tool call: ${ctx.target} only has function tool calls.`);
      return;
    }
    ctx.keys(co, cp, ['id', 'type', 'function']);
    const fp = `${cp}.function`;
    const fn = asObj(co.function, fp);
    ctx.keys(fn, fp, ['name', 'arguments']);
    calls.push({
      id: asStr(co.id, `${cp}.id`),
      name: asStr(fn.name, `${fp}.name`),
      args: asStr(fn.arguments ?? '', `${fp}.arguments`),
      argsPath: `${fp}.arguments`,
    });
  });
  return calls;
}

function readChatContent(content: unknown, path: string, ctx: Ctx, allowed: readonly string[]): string | Part[] {
  return readParts(content, path, (o, pp, type) => {
    if (allowed.includes(type)) return readChatPart(o, pp, type, ctx);
    notTranslatedBlock(pp, type, ctx);
    return undefined;
  });
}

function readChatPart(o: Json, pp: string, type: string, ctx: Ctx): Part | undefined {
  switch (type) {
    case 'text':
      ctx.keys(o, pp, ['type', 'text']);
      return { type: 'text', text: asStr(o.text, `${pp}.text`), path: pp };
    case 'refusal':
      ctx.keys(o, pp, ['type', 'refusal']);
      return { type: 'refusal', text: asStr(o.refusal, `${pp}.refusal`), path: pp };
    case 'image_url': {
      ctx.keys(o, pp, ['type', 'image_url']);
      const ip = `${pp}.image_url`;
      // Some clients write the URL directly; the API's own shape is {url, detail}.
      if (typeof o.image_url === 'string') return { type: 'image', url: o.image_url, path: pp };
      const img = asObj(o.image_url, ip);
      ctx.keys(img, ip, ['url', 'detail']);
      return { type: 'image', url: asStr(img.url, `${ip}.url`), detail: strF(img, 'detail', ip), path: pp };
    }
    case 'file': {
      ctx.keys(o, pp, ['type', 'file']);
      const fp = `${pp}.file`;
      const f = asObj(o.file, fp);
      ctx.keys(f, fp, ['file_data', 'file_id', 'filename']);
      if (present(f.file_id)) return ctx.noFileId(pp, 'the file inline (file_data)');
      return { type: 'file', data: asStr(f.file_data, `${fp}.file_data`), filename: strF(f, 'filename', fp), path: pp };
    }
    case 'input_audio':
      ctx.lose(pp, `${ctx.target} has no audio input.`);
      return undefined;
  }
  return undefined;
}

function readChatTool(o: Json, path: string, ctx: Ctx): Tool | undefined {
  if (o.type !== 'function') {
    ctx.lose(path, `A "${String(o.type)}" tool: ${ctx.target} only takes function tools.`);
    return undefined;
  }
  ctx.keys(o, path, ['type', 'function']);
  const fp = `${path}.function`;
  const fn = asObj(o.function, fp);
  ctx.keys(fn, fp, ['name', 'description', 'parameters', 'strict']);
  return {
    name: asStr(fn.name, `${fp}.name`),
    description: strF(fn, 'description', fp)?.v,
    schema: fn.parameters ?? undefined,
    strict: boolF(fn, 'strict', fp)?.v,
    path: fp,
  };
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
  ir.format = {
    kind,
    schema: js.schema ?? undefined,
    name: strF(js, 'name', jp),
    strict: boolF(js, 'strict', jp),
    description: strF(js, 'description', jp),
    path: 'response_format',
  };
}

export function writeChat(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  out.messages = writeChatMessages(ir, ctx);
  if (ir.maxTokens) out.max_completion_tokens = ir.maxTokens.v;
  if (ir.temperature) out.temperature = ir.temperature.v;
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) {
    out.stop = ir.stop.v.slice(0, CHAT_MAX_STOP);
    ir.stop.v.slice(CHAT_MAX_STOP).forEach((_, k) => {
      ctx.lose(
        `${ir.stop!.path}[${CHAT_MAX_STOP + k}]`,
        `Chat Completions accepts at most ${CHAT_MAX_STOP} stop sequences.`,
      );
    });
  }
  if (ir.stream) out.stream = ir.stream.v;
  const so: Json = {};
  if (ir.includeUsage) so.include_usage = ir.includeUsage.v;
  else if (ir.stream?.v === true) {
    so.include_usage = true;
    ctx.add(ir.stream.path, 'Without it a streamed Chat answer reports no usage.', 'stream_options.include_usage');
  }
  if (ir.includeObfuscation) so.include_obfuscation = ir.includeObfuscation.v;
  if (Object.keys(so).length > 0) out.stream_options = so;
  if (ir.tools) {
    out.tools = ir.tools.map((t, k) => {
      const fn: Json = { name: t.name };
      if (t.description !== undefined) fn.description = t.description;
      if (t.schema !== undefined) fn.parameters = t.schema;
      const strict = strictFor(t, ctx, `tools[${k}].function.strict`);
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
  if (ir.summary) ctx.lose(ir.summary.path, 'Chat Completions returns no reasoning summary.');
  if (ir.display) ctx.lose(ir.display.path, 'Chat Completions shows no reasoning, so there is no display setting.');
  if (ir.format) out.response_format = writeOpenAiFormat(ir.format, ctx, 'chat');
  if (ir.verbosity) out.verbosity = ir.verbosity.v;
  carryOpenAiCommon(ir, out);
  if (ir.logprobs) out.logprobs = ir.logprobs.v;
  return out;
}

function writeChatMessages(ir: IR, ctx: Ctx): Json[] {
  return compact(ir.turns.map((t) => writeChatMessage(t, ctx)));
}

/** One turn as a Chat message; an assistant turn with nothing to send is left out (undefined). */
function writeChatMessage(t: Turn, ctx: Ctx): Json | undefined {
  switch (t.role) {
    case 'system':
    case 'developer':
    case 'user':
      return {
        role: t.role,
        content: typeof t.content === 'string' ? t.content : compact(t.content.map((p) => chatPart(p, ctx))),
      };
    case 'assistant':
      return writeChatAssistant(t, ctx);
    case 'tool': {
      let content: unknown = t.output;
      if (Array.isArray(t.output)) {
        const parts = compact(
          t.output.map((p) => {
            if (p.type === 'text') return { type: 'text', text: p.text };
            ctx.lose(
              p.path,
              `Chat Completions tool messages carry text only, not ${p.type === 'image' ? 'images' : 'files'}.`,
            );
            return undefined;
          }),
        );
        content = parts.length > 0 ? parts : '';
      }
      return { role: 'tool', tool_call_id: t.callId, content };
    }
  }
}

function writeChatAssistant(t: Extract<Turn, { role: 'assistant' }>, ctx: Ctx): Json | undefined {
  let content: unknown = null;
  if (typeof t.content === 'string') content = t.content;
  else if (t.content && t.content.length > 0) content = compact(t.content.map((p) => chatPart(p, ctx)));
  if (content === null && t.calls.length === 0) {
    ctx.emptyTurn(t.path);
    return undefined;
  }
  const msg: Json = { role: 'assistant', content };
  if (t.calls.length > 0) {
    msg.tool_calls = t.calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.args },
    }));
  }
  return msg;
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
        ctx.change(
          p.detail.path,
          'Chat Completions has no "original" image detail (only auto, low and high): "high", its most detailed ' +
            'level, is used.',
          'image_url.detail',
        );
      } else if (p.detail) img.detail = p.detail.v;
      return { type: 'image_url', image_url: img };
    }
    case 'file': {
      if (p.data === undefined) {
        ctx.lose(p.path, 'Chat Completions file parts take inline data or a file id, not a URL.');
        return undefined;
      }
      const data = parseDataUrl(p.data);
      if (data && data.mediaType !== 'application/pdf') return chatNonPdf(p, data, ctx);
      const file: Json = { file_data: p.data };
      if (p.filename) file.filename = p.filename.v;
      return { type: 'file', file };
    }
  }
}

/**
 * Chat Completions file parts take PDFs only (docs/protocols.md §8.1): a plain-text file's content becomes a text
 * part, saying so; any other type is lost.
 */
function chatNonPdf(p: Part & { type: 'file' }, data: { mediaType: string; data: string }, ctx: Ctx): Json | undefined {
  const text = data.mediaType === 'text/plain' ? base64Text(data.data) : undefined;
  if (text === undefined) {
    ctx.lose(p.path, `Chat Completions file parts take PDFs only; this file is ${data.mediaType}.`);
    return undefined;
  }
  const name = p.filename ? ` (its name, "${p.filename.v}", is left out)` : '';
  ctx.change(p.path, `Chat Completions file parts take PDFs only: the text file's content becomes a text part${name}.`);
  return { type: 'text', text };
}

/**
 * Reads a request of any of the three protocols into one conversation, and plans the reply from it:
 * deterministic text, a tool call with schema-valid arguments, thinking, cache accounting. The protocol
 * modules only render the plan in their own wire format.
 */
import { createHash } from 'node:crypto';
import type { ProtocolId } from '../../../shared/protocols/types';
import type { SimModel } from './catalogue';
import { documentReply, readDocument, type SimDocument } from './documents';
import { dominantColour, readText } from './images';
import { replyText } from './replies';
import { cacheUse, inputTokens, textTokens, type CacheUse } from './tokens';
import { jsonText } from '../../../shared/json-text';
import { agentArgs, answeredTool, mentionsWord, pickTool, promptText } from './agent-tools';

type Json = Record<string, unknown>;

export interface Turn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  images: Buffer[];
  /** PDFs and text documents, as the route read them (documents.ts). */
  documents?: SimDocument[];
  /** Set on assistant turns that called a tool. */
  toolCall?: { id: string; name: string };
  cacheMark?: boolean;
}

export interface ToolDef {
  name: string;
  schema: Json;
}

export interface Conversation {
  system: string;
  systemCacheMark: boolean;
  turns: Turn[];
  tools: ToolDef[];
  toolChoice: 'auto' | 'any' | 'none' | { name: string };
  thinking: boolean;
  reasoningSummary: boolean;
  jsonSchema?: Json;
  maxTokens?: number;
  stopSequences: string[];
  stream: boolean;
  includeUsage: boolean;
  /** Anthropic top-level cache_control (automatic caching). */
  autoCache: boolean;
}

export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function decodeDataUrl(url: string): Buffer | undefined {
  const m = /^data:[^;]+;base64,(.*)$/s.exec(url);
  return m ? Buffer.from(m[1], 'base64') : undefined;
}

function partsToTurn(role: Turn['role'], content: unknown, protocol: ProtocolId): Turn[] {
  const turn: Turn = { role, text: '', images: [] };
  const extra: Turn[] = [];
  if (typeof content === 'string') {
    turn.text = content;
    return [turn];
  }
  if (!Array.isArray(content)) return [turn];
  for (const part of content) {
    if (!isObj(part)) continue;
    if (part.cache_control) turn.cacheMark = true;
    const t = part.type;
    if ((t === 'text' || t === 'input_text' || t === 'output_text') && typeof part.text === 'string')
      turn.text += (turn.text ? '\n' : '') + part.text;
    else if (
      t === 'image' &&
      isObj(part.source) &&
      part.source.type === 'base64' &&
      typeof part.source.data === 'string'
    )
      turn.images.push(Buffer.from(part.source.data, 'base64'));
    else if (t === 'image_url' && isObj(part.image_url) && typeof part.image_url.url === 'string') {
      const b = decodeDataUrl(part.image_url.url);
      if (b) turn.images.push(b);
    } else if (t === 'input_image' && typeof part.image_url === 'string') {
      const b = decodeDataUrl(part.image_url);
      if (b) turn.images.push(b);
    } else if (t === 'document' || t === 'file' || t === 'input_file') {
      const doc = readDocument(part, protocol);
      if (doc) (turn.documents ??= []).push(doc);
    } else if (t === 'tool_use' && typeof part.name === 'string') {
      turn.toolCall = { id: jsonText(part.id), name: part.name };
      turn.text += JSON.stringify(part.input ?? {});
    } else if (t === 'tool_result') {
      const c = part.content;
      const text =
        typeof c === 'string'
          ? c
          : Array.isArray(c)
            ? c.map((x) => (isObj(x) && typeof x.text === 'string' ? x.text : '')).join('')
            : '';
      extra.push({ role: 'tool', text, images: [] });
    } else if (t === 'thinking' && typeof part.thinking === 'string' && protocol === 'messages') turn.text += '';
  }
  const kept = turn.text || turn.images.length || turn.documents?.length;
  return extra.length ? [...extra, ...(kept ? [turn] : [])] : [turn];
}

/**
 * The Messages tool-loop rules upstream enforces with a 400 (docs/protocols.md §1.5, §1.7). Consecutive same-role
 * messages count as one turn, as upstream merges them. Every tool_result must answer a tool_use of the
 * assistant turn just before it; and with thinking on, the assistant turn a final tool_result answers must
 * start with its thinking block, echoed unchanged.
 */
function checkToolTurns(messages: unknown[], thinking: boolean): void {
  const turns: { role: unknown; index: number; blocks: Json[] }[] = [];
  messages.forEach((m, index) => {
    if (!isObj(m)) return;
    const blocks =
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : Array.isArray(m.content)
          ? m.content.filter(isObj)
          : [];
    const last = turns.at(-1);
    if (last && last.role === m.role) last.blocks.push(...blocks);
    else turns.push({ role: m.role, index, blocks });
  });
  turns.forEach((turn, t) => {
    const results = turn.blocks.filter((b) => b.type === 'tool_result');
    if (turn.role !== 'user' || results.length === 0) return;
    const prev = turns[t - 1];
    const called = new Set(
      prev?.role === 'assistant' ? prev.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : [],
    );
    const stray = results.map((b) => b.tool_use_id).filter((id) => !called.has(id));
    if (stray.length) {
      throw new RequestError(
        400,
        'invalid_request_error',
        `messages.${turn.index}.content.${turn.blocks.indexOf(results[0])}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    const first = prev.blocks[0]?.type;
    if (thinking && t === turns.length - 1 && first !== 'thinking' && first !== 'redacted_thinking') {
      throw new RequestError(
        400,
        'invalid_request_error',
        `messages.${prev.index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${jsonText(first, 'nothing')}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
      );
    }
  });
}

/**
 * `modelThinks`: a model without thinking ignores the request's thinking on every turn, so it never demands a
 * thinking block it did not give (docs/agents.md "The Demo gateway as a model").
 */
export function readConversation(protocol: ProtocolId, body: Json, modelThinks = true): Conversation {
  const conv: Conversation = {
    system: '',
    systemCacheMark: false,
    turns: [],
    tools: [],
    toolChoice: 'auto',
    thinking: false,
    reasoningSummary: false,
    stopSequences: [],
    stream: body.stream === true,
    includeUsage: false,
    autoCache: false,
  };
  if (protocol === 'messages') {
    if (typeof body.max_tokens !== 'number')
      throw new RequestError(400, 'invalid_request_error', 'max_tokens: Field required');
    if (!Array.isArray(body.messages)) throw new RequestError(400, 'invalid_request_error', 'messages: Field required');
    conv.maxTokens = body.max_tokens;
    if (typeof body.system === 'string') conv.system = body.system;
    else if (Array.isArray(body.system)) {
      for (const b of body.system) {
        if (isObj(b) && typeof b.text === 'string') conv.system += b.text;
        if (isObj(b) && b.cache_control) conv.systemCacheMark = true;
      }
    }
    for (const m of body.messages) {
      if (!isObj(m)) continue;
      // A system turn inside messages (Claude Code's mid-conversation-system beta) instructs; it is not the prompt.
      if (m.role === 'system') conv.system += partsToTurn('user', m.content, protocol)[0]?.text ?? '';
      else conv.turns.push(...partsToTurn(m.role === 'assistant' ? 'assistant' : 'user', m.content, protocol));
    }
    if (Array.isArray(body.tools))
      for (const t of body.tools)
        if (isObj(t) && typeof t.name === 'string')
          conv.tools.push({ name: t.name, schema: isObj(t.input_schema) ? t.input_schema : {} });
    const tc = body.tool_choice;
    if (isObj(tc))
      conv.toolChoice =
        tc.type === 'any'
          ? 'any'
          : tc.type === 'none'
            ? 'none'
            : tc.type === 'tool' && typeof tc.name === 'string'
              ? { name: tc.name }
              : 'auto';
    const th = body.thinking;
    if (isObj(th) && (th.type === 'enabled' || th.type === 'adaptive')) {
      if (th.type === 'enabled') {
        const budget = th.budget_tokens;
        if (typeof budget !== 'number' || budget < 1024)
          throw new RequestError(400, 'invalid_request_error', 'thinking.budget_tokens: must be at least 1024');
        if (budget >= conv.maxTokens)
          throw new RequestError(
            400,
            'invalid_request_error',
            '`max_tokens` must be greater than `thinking.budget_tokens`',
          );
      }
      conv.thinking = true;
      if (conv.toolChoice === 'any' || typeof conv.toolChoice === 'object')
        throw new RequestError(
          400,
          'invalid_request_error',
          'Thinking may not be enabled when tool_choice forces tool use.',
        );
    }
    checkToolTurns(body.messages, conv.thinking && modelThinks);
    if (Array.isArray(body.stop_sequences))
      conv.stopSequences = body.stop_sequences.filter((s): s is string => typeof s === 'string');
    const fmt = isObj(body.output_config) ? body.output_config.format : undefined;
    if (isObj(fmt) && fmt.type === 'json_schema' && isObj(fmt.schema)) conv.jsonSchema = fmt.schema;
    conv.autoCache = isObj(body.cache_control);
  } else if (protocol === 'chat') {
    if (!Array.isArray(body.messages))
      throw new RequestError(
        400,
        'invalid_request_error',
        "Missing required parameter: 'messages'.",
        'missing_required_parameter',
      );
    for (const m of body.messages) {
      if (!isObj(m)) continue;
      if (m.role === 'system' || m.role === 'developer')
        conv.system +=
          typeof m.content === 'string' ? m.content : (partsToTurn('user', m.content, protocol)[0]?.text ?? '');
      else if (m.role === 'tool')
        conv.turns.push({ role: 'tool', text: typeof m.content === 'string' ? m.content : '', images: [] });
      else if (m.role === 'assistant') {
        const turn = partsToTurn('assistant', m.content ?? '', protocol)[0];
        const call: unknown = Array.isArray(m.tool_calls) ? m.tool_calls[0] : undefined;
        if (isObj(call) && isObj(call.function))
          turn.toolCall = { id: jsonText(call.id), name: jsonText(call.function.name) };
        conv.turns.push(turn);
      } else conv.turns.push(...partsToTurn('user', m.content, protocol));
    }
    const max = body.max_completion_tokens ?? body.max_tokens;
    if (typeof max === 'number') conv.maxTokens = max;
    if (Array.isArray(body.tools)) {
      for (const t of body.tools)
        if (isObj(t) && isObj(t.function) && typeof t.function.name === 'string')
          conv.tools.push({ name: t.function.name, schema: isObj(t.function.parameters) ? t.function.parameters : {} });
    }
    const tc = body.tool_choice;
    conv.toolChoice =
      tc === 'required'
        ? 'any'
        : tc === 'none'
          ? 'none'
          : isObj(tc) && isObj(tc.function) && typeof tc.function.name === 'string'
            ? { name: tc.function.name }
            : 'auto';
    conv.thinking = typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none';
    if (typeof body.stop === 'string') conv.stopSequences = [body.stop];
    else if (Array.isArray(body.stop)) conv.stopSequences = body.stop.filter((s): s is string => typeof s === 'string');
    const rf = body.response_format;
    if (isObj(rf) && rf.type === 'json_schema' && isObj(rf.json_schema) && isObj(rf.json_schema.schema))
      conv.jsonSchema = rf.json_schema.schema;
    conv.includeUsage = isObj(body.stream_options) && body.stream_options.include_usage === true;
  } else {
    const max = body.max_output_tokens;
    if (typeof max === 'number') {
      if (max < 16)
        throw new RequestError(
          400,
          'invalid_request_error',
          `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${max} instead.`,
          'integer_below_min_value',
        );
      conv.maxTokens = max;
    }
    if (typeof body.instructions === 'string') conv.system = body.instructions;
    const input = body.input;
    if (typeof input === 'string') conv.turns.push({ role: 'user', text: input, images: [] });
    else if (Array.isArray(input)) {
      for (const item of input) {
        if (!isObj(item)) continue;
        if (item.type === 'function_call_output')
          conv.turns.push({
            role: 'tool',
            text: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
            images: [],
          });
        else if (item.type === 'function_call')
          conv.turns.push({
            role: 'assistant',
            text: jsonText(item.arguments),
            images: [],
            toolCall: { id: jsonText(item.call_id), name: jsonText(item.name) },
          });
        else if (item.type === 'reasoning') continue;
        else if (item.role === 'system' || item.role === 'developer')
          conv.system += partsToTurn('user', item.content, protocol)[0]?.text ?? '';
        else conv.turns.push(...partsToTurn(item.role === 'assistant' ? 'assistant' : 'user', item.content, protocol));
      }
    } else if (input !== undefined)
      throw new RequestError(
        400,
        'invalid_request_error',
        "Invalid type for 'input': expected a string or an array.",
        'invalid_type',
      );
    if (Array.isArray(body.tools))
      for (const t of body.tools)
        if (isObj(t) && t.type === 'function' && typeof t.name === 'string')
          conv.tools.push({ name: t.name, schema: isObj(t.parameters) ? t.parameters : {} });
    const tc = body.tool_choice;
    conv.toolChoice =
      tc === 'required'
        ? 'any'
        : tc === 'none'
          ? 'none'
          : isObj(tc) && typeof tc.name === 'string'
            ? { name: tc.name }
            : 'auto';
    const r = body.reasoning;
    // A reasoning object without an effort (Codex on an id it does not know) reasons at the default effort.
    conv.thinking = isObj(r) && r.effort !== 'none';
    conv.reasoningSummary = isObj(r) && typeof r.summary === 'string';
    const fmt = isObj(body.text) ? body.text.format : undefined;
    if (isObj(fmt) && fmt.type === 'json_schema' && isObj(fmt.schema)) conv.jsonSchema = fmt.schema;
  }
  return conv;
}

// ---- the reply ----

export interface Plan {
  thinking?: string;
  text?: string;
  toolCall?: { id: string; name: string; args: Json };
  stop: 'end' | 'tool' | 'max' | 'stop_sequence';
  stopSequence?: string;
  input: number;
  cache: CacheUse;
  output: number;
  reasoning: number;
}

/** A value that satisfies a JSON schema, using hints from the prompt (enum values mentioned, a nonce). */
export function valueFor(schema: unknown, prompt: string, name = ''): unknown {
  if (!isObj(schema)) return 'example';
  if (Array.isArray(schema.enum) && schema.enum.length) {
    return schema.enum.find((v) => typeof v === 'string' && mentionsWord(prompt, v)) ?? schema.enum[0];
  }
  if (schema.const !== undefined) return schema.const;
  const type: unknown = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || isObj(schema.properties)) {
    const out: Json = {};
    const props = isObj(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : Object.keys(props);
    for (const k of Object.keys(props)) if (required.includes(k)) out[k] = valueFor(props[k], prompt, k);
    return out;
  }
  if (type === 'array') return [valueFor(schema.items, prompt, name)];
  if (type === 'integer') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
  if (type === 'boolean') return true;
  if (/nonce/i.test(name)) return /nonce(?:\s+(?:is|was))?[\s:"'=]+([A-Za-z0-9_-]{3,})/i.exec(prompt)?.[1] ?? 'none';
  if (/city|location|place/i.test(name)) return 'Paris';
  return typeof schema.minLength === 'number' && schema.minLength > 7
    ? 'example'.padEnd(schema.minLength, 'x')
    : 'example';
}

export function plan(protocol: ProtocolId, conv: Conversation, model: SimModel, cache: Set<string>, seq: number): Plan {
  const input = inputTokens(conv);
  const cacheU = cacheUse(protocol, conv, model, cache);
  const last = conv.turns[conv.turns.length - 1];
  const lastUser = [...conv.turns].reverse().find((t) => t.role === 'user');
  const p: Plan = { stop: 'end', input, cache: cacheU, output: 0, reasoning: 0 };
  const callId = (prefix: string) =>
    `${prefix}${createHash('md5')
      .update(`${model.id}|${seq}|${JSON.stringify(conv.turns.map((t) => t.text))}`)
      .digest('hex')
      .slice(0, 20)}`;

  if (conv.thinking && model.thinking) {
    p.thinking = `The user asks: "${(lastUser?.text ?? '').slice(0, 60)}". Let me work through it step by step and answer briefly.`;
    p.reasoning = textTokens(p.thinking) + 8;
  }

  const prompt = promptText(lastUser);
  const tool =
    model.tools && conv.tools.length > 0 && conv.toolChoice !== 'none' && !answeredTool(conv.turns)
      ? pickTool(conv, prompt)
      : undefined;
  if (tool) {
    const args = valueFor(tool.schema, prompt) as Json;
    p.toolCall = { id: callId(''), name: tool.name, args: agentArgs(tool, isObj(args) ? args : {}, conv, prompt) };
    p.text = `I'll call ${tool.name}.`;
    p.stop = 'tool';
  } else if (conv.jsonSchema && model.structured) {
    p.text = JSON.stringify(valueFor(conv.jsonSchema, `${conv.system}\n${lastUser?.text ?? ''}`));
  } else if (last?.role === 'tool' || answeredTool(conv.turns)) {
    const result = conv.turns.findLast((t) => t.role === 'tool')?.text ?? '';
    p.text = `The tool returned: ${result.slice(0, 400)}. Based on that result, here is the answer you asked for.`;
  } else if (lastUser?.documents?.length) {
    p.text = `${documentReply(lastUser.documents)} ${replyText(model, lastUser.text)}`;
  } else if (lastUser?.images.length && model.vision) {
    const text = readText(lastUser.images[0]);
    const colour = text ? undefined : dominantColour(lastUser.images[0]);
    p.text = text ?? (colour ? `The image is mostly ${colour}.` : 'I could not read that image.');
  } else if (model.fault === 'fragmented') {
    p.text = `Fragments test: café — naïve 日本語 text with an emoji 🚀 survives splitting. ${replyText(model, lastUser?.text ?? '')}`;
  } else {
    p.text = replyText(model, lastUser?.text ?? '');
  }

  if (model.fault === 'firehose') {
    p.text = 'x '.repeat(Math.min(200_000, Math.max(1, conv.maxTokens ?? 1000)));
    p.toolCall = undefined;
    p.stop = 'end';
  }

  if (p.text && conv.stopSequences.length) {
    for (const s of conv.stopSequences) {
      const at = s ? p.text.indexOf(s) : -1;
      if (at >= 0) {
        p.text = p.text.slice(0, at);
        p.stop = 'stop_sequence';
        p.stopSequence = s;
      }
    }
  }
  const words = (p.text ?? '').split(/(?<= )/);
  const textOut = model.fault === 'firehose' ? words.length : textTokens(p.text ?? '');
  let output = textOut + (p.toolCall ? textTokens(JSON.stringify(p.toolCall.args)) + 5 : 0) + p.reasoning;
  if (conv.maxTokens !== undefined && output > conv.maxTokens && model.fault !== 'firehose') {
    const keep = Math.max(1, Math.floor(((conv.maxTokens - p.reasoning) / Math.max(1, textOut)) * words.length));
    p.text = words.slice(0, keep).join('');
    p.toolCall = undefined;
    p.stop = 'max';
    output = conv.maxTokens;
  }
  p.output = Math.max(1, output);
  return p;
}

/** Splits text into stream deltas: one word (with its trailing space) each. */
export function deltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits tool-call arguments into a few partial JSON fragments, as upstreams do. */
export function argChunks(json: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += 7) out.push(json.slice(i, i + 7));
  return out.length ? out : ['{}'];
}

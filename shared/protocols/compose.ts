/**
 * Request-body helpers for the composer. Pure: every function returns a new body, never mutates its input,
 * and keeps fields it does not know (the gateway publishes no schema, so whatever the user typed is sent).
 * Shapes follow docs/protocols.md §1.7 (Messages), §3.4 (Chat) and §4.3 (Responses).
 */
import type { Block, ProtocolId, Transcript } from './types';
import { isObject } from '../is-object';

type Body = Record<string, unknown>;
type ToolBlock = Extract<Block, { kind: 'tool_call' }>;

export const DEFAULT_PROMPT = 'Explain server-sent events in two sentences.';

/** Each protocol names its output cap differently (docs/protocols.md §8). */
export function maxTokensField(protocol: ProtocolId): 'max_tokens' | 'max_completion_tokens' | 'max_output_tokens' {
  return protocol === 'messages' ? 'max_tokens' : protocol === 'chat' ? 'max_completion_tokens' : 'max_output_tokens';
}

export function defaultBody(protocol: ProtocolId, model?: string): Body {
  const body: Body = {};
  if (model !== undefined) body.model = model;
  const turn = { role: 'user', content: DEFAULT_PROMPT };
  if (protocol === 'responses') body.input = [turn];
  else body.messages = [turn];
  body[maxTokensField(protocol)] = 1024;
  body.stream = true;
  // Without include_usage a streamed Chat answer carries no usage at all.
  if (protocol === 'chat') body.stream_options = { include_usage: true };
  return body;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? [...(value as unknown[])] : [];
}

/** Responses `input` may be a plain string: it becomes the first user item so turns can follow it. */
function inputItems(value: unknown): unknown[] {
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  return listOf(value);
}

function withMessages(body: Body, add: unknown[]): Body {
  return { ...body, messages: [...listOf(body.messages), ...add] };
}

function withInput(body: Body, add: unknown[]): Body {
  return { ...body, input: [...inputItems(body.input), ...add] };
}

/** Arguments as the JSON string Chat and Responses expect; an empty buffer means `{}`. */
function argumentsText(call: ToolBlock): string {
  if (call.argsText.trim() !== '') return call.argsText;
  return JSON.stringify(call.args ?? {});
}

function toolInput(call: ToolBlock): unknown {
  return isObject(call.args) ? call.args : {};
}

function messagesContent(blocks: Block[]): unknown[] {
  const content: unknown[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'thinking':
        // Thinking must go back unchanged (signature included) or the API answers 400; a thinking block
        // without a signature (from another protocol's transcript) cannot be re-sent at all.
        if (b.redacted) {
          if (b.data !== undefined) content.push({ type: 'redacted_thinking', data: b.data });
        } else if (b.signature) {
          content.push({ type: 'thinking', thinking: b.text, signature: b.signature });
        }
        break;
      case 'text':
        // The API rejects empty text blocks.
        if (b.text !== '') content.push({ type: 'text', text: b.text });
        break;
      case 'tool_call':
        // A call cut off mid-stream gets no tool_result, and a tool_use without one is a 400.
        if (b.complete) content.push({ type: 'tool_use', id: b.id, name: b.name, input: toolInput(b) });
        break;
      case 'refusal':
        // A stop_details refusal is the app's wording: resending it would put words in the model's mouth.
        if (b.text !== '' && b.source !== 'stop_details') content.push({ type: 'text', text: b.text });
        break;
      case 'other':
        // Server-tool blocks (server_tool_use, *_tool_result) are resent as received, e.g. after pause_turn.
        if (isObject(b.raw) && typeof b.raw.type === 'string') content.push({ ...b.raw });
        break;
    }
  }
  // "The final block in an assistant message cannot be thinking": that is what remains when the reply
  // was cut off (or its tool call dropped) right after thinking.
  while (content.length > 0 && isThinking(content[content.length - 1])) content.pop();
  return content;
}

function isThinking(block: unknown): boolean {
  return isObject(block) && (block.type === 'thinking' || block.type === 'redacted_thinking');
}

function chatAssistant(blocks: Block[]): Body | undefined {
  const text = blocks
    .filter((b): b is Extract<Block, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text)
    .join('');
  const refusal = blocks
    .filter((b) => b.kind === 'refusal')
    .map((b) => (b as { text: string }).text)
    .join('');
  // Arguments cut off mid-stream are broken JSON, and no result can answer such a call.
  const calls = blocks.filter((b): b is ToolBlock => b.kind === 'tool_call' && b.complete);
  if (text === '' && refusal === '' && calls.length === 0) return undefined;
  const msg: Body = { role: 'assistant', content: text === '' && (calls.length > 0 || refusal !== '') ? null : text };
  if (refusal !== '') msg.refusal = refusal;
  if (calls.length > 0) {
    msg.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: argumentsText(c) },
    }));
  }
  return msg;
}

function responsesItems(blocks: Block[]): unknown[] {
  const items: unknown[] = [];
  let parts: unknown[] | undefined;
  for (const b of blocks) {
    if (b.kind === 'text' || b.kind === 'refusal') {
      if (b.text === '') continue;
      // Consecutive text parts belong to one assistant message item, as they came.
      if (!parts) {
        parts = [];
        items.push({ type: 'message', role: 'assistant', content: parts });
      }
      parts.push(b.kind === 'text' ? { type: 'output_text', text: b.text } : { type: 'refusal', refusal: b.text });
      continue;
    }
    parts = undefined;
    if (b.kind === 'tool_call') {
      // Arguments cut off mid-stream are broken JSON, and no function_call_output can answer such a call.
      if (b.complete) items.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: argumentsText(b) });
    } else if (b.kind === 'thinking' && isObject(b.item) && typeof b.item.encrypted_content === 'string') {
      // Without store the server keeps no reasoning: the stateless loop carries it back, as received.
      items.push({ ...b.item });
    }
    // A reasoning item without encrypted_content cannot be re-sent, and hosted-tool items are server state.
  }
  // The API rejects a reasoning item "provided without its required following item".
  while (items.length > 0 && isReasoning(items[items.length - 1])) items.pop();
  return items;
}

function isReasoning(item: unknown): boolean {
  return isObject(item) && item.type === 'reasoning';
}

/** Appends the model's reply as the next assistant turn, in the protocol's own shape. */
export function appendAssistantTurn(protocol: ProtocolId, body: Body, transcript: Transcript): Body {
  const blocks = transcript.blocks;
  if (protocol === 'messages') {
    const content = messagesContent(blocks);
    return content.length ? withMessages(body, [{ role: 'assistant', content }]) : { ...body };
  }
  if (protocol === 'chat') {
    const msg = chatAssistant(blocks);
    return msg ? withMessages(body, [msg]) : { ...body };
  }
  const items = responsesItems(blocks);
  return items.length ? withInput(body, items) : { ...body };
}

export interface ToolResult {
  id: string;
  name?: string;
  output: string;
  isError?: boolean;
}

/** Appends one result per tool call: tool_result blocks first in one user message / tool messages / items. */
export function appendToolResults(protocol: ProtocolId, body: Body, results: ToolResult[]): Body {
  if (results.length === 0) return { ...body };
  if (protocol === 'messages') {
    const content = results.map((r) => {
      const block: Body = { type: 'tool_result', tool_use_id: r.id, content: r.output };
      if (r.isError) block.is_error = true;
      return block;
    });
    return withMessages(body, [{ role: 'user', content }]);
  }
  if (protocol === 'chat') {
    return withMessages(
      body,
      results.map((r) => ({ role: 'tool', tool_call_id: r.id, content: r.output })),
    );
  }
  return withInput(
    body,
    results.map((r) => ({ type: 'function_call_output', call_id: r.id, output: r.output })),
  );
}

export function appendUserTurn(protocol: ProtocolId, body: Body, text: string): Body {
  const turn = { role: 'user', content: text };
  return protocol === 'responses' ? withInput(body, [turn]) : withMessages(body, [turn]);
}

export interface PendingToolCall {
  id: string;
  name: string;
  args: unknown;
  argsText: string;
}

/** The finished tool calls of the last reply: each needs a result before the conversation can go on. */
export function pendingToolCalls(transcript: Transcript): PendingToolCall[] {
  const out: PendingToolCall[] = [];
  for (const b of transcript.blocks) {
    if (b.kind === 'tool_call' && b.complete) out.push({ id: b.id, name: b.name, args: b.args, argsText: b.argsText });
  }
  return out;
}

export function getModel(body: Body): string | undefined {
  return typeof body?.model === 'string' ? body.model : undefined;
}

export function isStreaming(body: Body): boolean {
  return body?.stream === true;
}

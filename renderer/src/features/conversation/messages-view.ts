/**
 * A request body read as a conversation: one message per speaker's turn, in each protocol's own terms
 * (docs/protocols.md §1.7, §3.4, §4.3). Pure, and read-only: every message knows which of the body's turns it
 * covers, so an edit, a branch or a regenerate acts on the body itself (the one source of truth the form and the
 * JSON show too).
 */
import type { ProtocolId } from '../../../../shared/protocols/types';
import { jsonText } from '../../../../shared/json-text';
import { getTurns } from '../composer/body-fields';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; redacted?: boolean }
  | { kind: 'tool_call'; id: string; name: string; args: string }
  | { kind: 'tool_result'; callId: string; output: string; isError?: boolean }
  | { kind: 'image'; src: string }
  | { kind: 'other'; type: string; raw: unknown };

export type MessageRole = 'user' | 'assistant' | 'tool' | 'other';

export interface MessageView {
  role: MessageRole;
  parts: MessagePart[];
  /** The first conversation turn it covers (the index `getTurns` and the form's turn boxes use). */
  turn: number;
  /** How many turns it covers: a Responses reply is several items, Chat's tool answers several messages. */
  span: number;
  /** The turn whose text Edit changes, when the message has exactly one plain text the form can write. */
  editTurn?: number;
}

function imageSrc(p: Json): string | undefined {
  if (p.type === 'image' && isObj(p.source)) {
    if (p.source.type === 'base64' && typeof p.source.data === 'string')
      return `data:${jsonText(p.source.media_type, 'image/png')};base64,${p.source.data}`;
    if (p.source.type === 'url' && typeof p.source.url === 'string') return p.source.url;
  }
  if (p.type === 'image_url') {
    if (isObj(p.image_url) && typeof p.image_url.url === 'string') return p.image_url.url;
    if (typeof p.image_url === 'string') return p.image_url;
  }
  if (p.type === 'input_image' && typeof p.image_url === 'string') return p.image_url;
  return undefined;
}

const textOfContent = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : isObj(p) ? `[${String(p.type)}]` : ''))
          .join('\n')
      : content === undefined || content === null
        ? ''
        : JSON.stringify(content);

/** One content part (any family's shape) as what it shows. */
function partOf(p: unknown): MessagePart {
  if (!isObj(p)) return { kind: 'text', text: typeof p === 'string' ? p : JSON.stringify(p) };
  const src = imageSrc(p);
  if (src !== undefined) return { kind: 'image', src };
  if (typeof p.text === 'string' && (p.type === 'text' || p.type === 'input_text' || p.type === 'output_text'))
    return { kind: 'text', text: p.text };
  if (p.type === 'refusal' && typeof p.refusal === 'string') return { kind: 'text', text: p.refusal };
  if (p.type === 'thinking') return { kind: 'thinking', text: jsonText(p.thinking) };
  if (p.type === 'redacted_thinking') return { kind: 'thinking', text: '', redacted: true };
  if (p.type === 'tool_use')
    return { kind: 'tool_call', id: jsonText(p.id), name: jsonText(p.name), args: JSON.stringify(p.input ?? {}) };
  if (p.type === 'tool_result')
    return {
      kind: 'tool_result',
      callId: jsonText(p.tool_use_id),
      output: textOfContent(p.content),
      isError: p.is_error === true || undefined,
    };
  return { kind: 'other', type: jsonText(p.type, 'part'), raw: p };
}

const contentParts = (content: unknown): MessagePart[] =>
  typeof content === 'string'
    ? content === ''
      ? []
      : [{ kind: 'text', text: content }]
    : Array.isArray(content)
      ? content.map(partOf)
      : [];

/** What one turn (message or Responses item) says, and whose it is. */
function readTurn(t: unknown): { role: MessageRole; parts: MessagePart[] } {
  if (!isObj(t)) return { role: 'other', parts: [{ kind: 'other', type: 'turn', raw: t }] };
  if (t.type === 'function_call')
    return {
      role: 'assistant',
      parts: [{ kind: 'tool_call', id: jsonText(t.call_id), name: jsonText(t.name), args: jsonText(t.arguments) }],
    };
  if (t.type === 'function_call_output')
    return {
      role: 'tool',
      parts: [{ kind: 'tool_result', callId: jsonText(t.call_id), output: textOfContent(t.output) }],
    };
  if (t.type === 'reasoning') {
    const summary = Array.isArray(t.summary) ? t.summary : [];
    const text = summary.map((s) => (isObj(s) && typeof s.text === 'string' ? s.text : '')).join('\n\n');
    return { role: 'assistant', parts: [{ kind: 'thinking', text, redacted: !text || undefined }] };
  }
  if (t.type !== undefined && t.type !== 'message')
    return { role: t.role === 'user' ? 'user' : 'other', parts: [{ kind: 'other', type: jsonText(t.type), raw: t }] };
  if (t.role === 'tool')
    return {
      role: 'tool',
      parts: [{ kind: 'tool_result', callId: jsonText(t.tool_call_id), output: textOfContent(t.content) }],
    };
  const parts: MessagePart[] = [];
  // Some OpenAI-compatible gateways carry the reasoning beside the content (reasoning_content).
  if (typeof t.reasoning_content === 'string' && t.reasoning_content)
    parts.push({ kind: 'thinking', text: t.reasoning_content });
  parts.push(...contentParts(t.content));
  if (typeof t.refusal === 'string' && t.refusal) parts.push({ kind: 'text', text: t.refusal });
  if (Array.isArray(t.tool_calls))
    for (const c of t.tool_calls)
      if (isObj(c) && isObj(c.function))
        parts.push({
          kind: 'tool_call',
          id: jsonText(c.id),
          name: jsonText(c.function.name),
          args: jsonText(c.function.arguments),
        });
  const role = t.role === 'assistant' ? 'assistant' : t.role === 'user' ? 'user' : 'other';
  // A Messages user turn that only answers tool calls is the tools speaking, as on the other protocols.
  if (role === 'user' && parts.length > 0 && parts.every((p) => p.kind === 'tool_result'))
    return { role: 'tool', parts };
  return { role, parts };
}

/** The conversation turns of a body (Chat's leading system turn is the system prompt, not a message). */
function rawTurns(protocol: ProtocolId, body: Json): unknown[] {
  if (protocol === 'responses') {
    if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
    return Array.isArray(body.input) ? (body.input as unknown[]) : [];
  }
  const turns: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const first = turns[0];
  return protocol === 'chat' && isObj(first) && (first.role === 'system' || first.role === 'developer')
    ? turns.slice(1)
    : turns;
}

/**
 * The body's conversation as messages. Consecutive Responses items of the assistant (reasoning, text, calls)
 * are one reply, and consecutive tool answers are one message: that is how each was produced.
 */
export function messagesOf(protocol: ProtocolId, body: Json): MessageView[] {
  const turns = rawTurns(protocol, body);
  const views = getTurns(protocol, body);
  const out: MessageView[] = [];
  // How many of each message's turns the form can write as text: Edit offers only one.
  const editables: number[] = [];
  turns.forEach((t, i) => {
    const { role, parts } = readTurn(t);
    const editable = views[i]?.text !== undefined && (role === 'user' || role === 'assistant');
    const prev = out[out.length - 1];
    const merge =
      prev !== undefined &&
      ((protocol === 'responses' && role === 'assistant' && prev.role === 'assistant') ||
        (protocol !== 'messages' && role === 'tool' && prev.role === 'tool'));
    if (merge) {
      prev.parts.push(...parts);
      prev.span++;
      if (editable) {
        editables[out.length - 1]++;
        prev.editTurn = editables[out.length - 1] === 1 ? i : undefined;
      }
      return;
    }
    out.push({ role, parts, turn: i, span: 1, editTurn: editable ? i : undefined });
    editables.push(editable ? 1 : 0);
  });
  return out;
}

/** A message as text for the clipboard: its words, its calls and results spelled out. */
export function messageText(m: Pick<MessageView, 'parts'>): string {
  return m.parts
    .map((p) =>
      p.kind === 'text'
        ? p.text
        : p.kind === 'thinking'
          ? `[thinking] ${p.text}`
          : p.kind === 'tool_call'
            ? `${p.name}(${p.args})`
            : p.kind === 'tool_result'
              ? `[result ${p.callId}] ${p.output}`
              : p.kind === 'image'
                ? '[image]'
                : `[${p.type}]`,
    )
    .join('\n\n');
}

/** The text Edit starts from: the message's one text part. */
export function editableText(m: MessageView): string {
  const text = m.parts.find((p) => p.kind === 'text');
  return text?.kind === 'text' ? text.text : '';
}

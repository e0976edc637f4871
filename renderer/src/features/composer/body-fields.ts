/**
 * The form's view of a request body: reads and writes the known fields of each protocol, in that protocol's
 * own terms, and leaves every other field exactly as it was (the gateway's parameters are unpublished, so
 * nothing the user typed may be dropped). Pure: each writer returns a new body.
 */
import type { ProtocolId } from '../../../../shared/protocols/types';
import { jsonText } from '../../../../shared/json-text';
import { documentOf, type DocumentView } from './document-parts';

export type Body = Record<string, unknown>;
type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Sets a top-level field; undefined or '' removes it. */
export function setField(body: Body, key: string, value: unknown): Body {
  const next = { ...body };
  if (value === undefined || value === '') delete next[key];
  else next[key] = value;
  return next;
}

export function setNested(body: Body, key: string, sub: string, value: unknown): Body {
  const obj = isObj(body[key]) ? { ...body[key] } : {};
  if (value === undefined || value === '') delete obj[sub];
  else obj[sub] = value;
  return setField(body, key, Object.keys(obj).length ? obj : undefined);
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.filter(
      (p) =>
        isObj(p) &&
        typeof p.text === 'string' &&
        (p.type === 'text' || p.type === 'input_text' || p.type === 'output_text'),
    );
    if (texts.length === content.length && texts.length === 1) return (texts[0] as Json).text as string;
  }
  return undefined;
}

// ---- system prompt ----

export function getSystem(protocol: ProtocolId, body: Body): { text: string; editable: boolean } {
  if (protocol === 'messages') {
    if (body.system === undefined) return { text: '', editable: true };
    if (typeof body.system === 'string') return { text: body.system, editable: true };
    const t = textOf(body.system);
    return t !== undefined
      ? { text: t, editable: true }
      : { text: '(system blocks: edit them in the JSON)', editable: false };
  }
  if (protocol === 'chat') {
    const msgs: unknown[] = Array.isArray(body.messages) ? body.messages : [];
    const first = msgs[0];
    if (isObj(first) && (first.role === 'system' || first.role === 'developer')) {
      const t = textOf(first.content);
      return t !== undefined
        ? { text: t, editable: true }
        : { text: '(structured system message: edit it in the JSON)', editable: false };
    }
    return { text: '', editable: true };
  }
  return {
    text: typeof body.instructions === 'string' ? body.instructions : '',
    editable: body.instructions === undefined || typeof body.instructions === 'string',
  };
}

export function setSystem(protocol: ProtocolId, body: Body, text: string): Body {
  if (protocol === 'messages') {
    if (Array.isArray(body.system) && body.system.length === 1 && isObj(body.system[0])) {
      return text ? { ...body, system: [{ ...body.system[0], text }] } : setField(body, 'system', undefined);
    }
    return setField(body, 'system', text);
  }
  if (protocol === 'chat') {
    const msgs: unknown[] = Array.isArray(body.messages) ? [...(body.messages as unknown[])] : [];
    const hasSystem = isObj(msgs[0]) && (msgs[0].role === 'system' || msgs[0].role === 'developer');
    if (!text) return hasSystem ? { ...body, messages: msgs.slice(1) } : body;
    if (hasSystem) msgs[0] = { ...(msgs[0] as Json), content: text };
    else msgs.unshift({ role: 'system', content: text });
    return { ...body, messages: msgs };
  }
  return setField(body, 'instructions', text);
}

/** Messages: whether the system prompt carries a cache_control breakpoint. */
export function systemCached(body: Body): boolean {
  return Array.isArray(body.system) && body.system.some((b) => isObj(b) && isObj(b.cache_control));
}

export function setSystemCached(body: Body, on: boolean): Body {
  const text = getSystem('messages', body).text;
  if (on) return { ...body, system: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] };
  if (Array.isArray(body.system)) return setField(body, 'system', text || undefined);
  return body;
}

// ---- turns ----

export interface TurnView {
  role: string;
  /**
   * Plain text when the turn is at most one text part beside its images; undefined for other structured
   * content (tool calls, tool results, several text parts…), which shows as `summary`.
   */
  text?: string;
  /** The turn's images, each as its part's place in the content and something an <img> can show. */
  images: { part: number; src: string }[];
  /** The turn's documents (PDF or text), each as its part's place in the content and what its chip shows. */
  documents: (DocumentView & { part: number })[];
  summary: string;
  cached?: boolean;
}

const isText = (p: unknown): p is Json =>
  isObj(p) && typeof p.text === 'string' && (p.type === 'text' || p.type === 'input_text' || p.type === 'output_text');

/** An image part's picture as a URL (a data: URL for base64), in any family's shape; undefined for other parts. */
function imageSrc(p: unknown): string | undefined {
  if (!isObj(p)) return undefined;
  if (p.type === 'image' && isObj(p.source)) {
    if (p.source.type === 'base64' && typeof p.source.data === 'string')
      return `data:${jsonText(p.source.media_type, 'image/png')};base64,${p.source.data}`;
    if (p.source.type === 'url' && typeof p.source.url === 'string') return p.source.url;
  }
  if (p.type === 'image_url')
    return isObj(p.image_url) && typeof p.image_url.url === 'string'
      ? p.image_url.url
      : typeof p.image_url === 'string'
        ? p.image_url
        : undefined;
  if (p.type === 'input_image' && typeof p.image_url === 'string') return p.image_url;
  return undefined;
}

/** An image or a document: a part the turn shows beside its text, with a button to take it out. */
const isAttachment = (p: unknown) => imageSrc(p) !== undefined || documentOf(p) !== undefined;

/** The text of content made of at most one text part and any number of images and documents, else undefined. */
function editableText(content: unknown): string | undefined {
  if (!Array.isArray(content) || !content.some(isAttachment)) return textOf(content);
  const texts = content.filter(isText);
  if (texts.length > 1 || texts.length + content.filter(isAttachment).length !== content.length) return undefined;
  return texts.length ? (texts[0].text as string) : '';
}

function turnsKey(protocol: ProtocolId): 'messages' | 'input' {
  return protocol === 'responses' ? 'input' : 'messages';
}

function turnsOf(protocol: ProtocolId, body: Body): unknown[] {
  const v = body[turnsKey(protocol)];
  if (protocol === 'responses' && typeof v === 'string') return [{ role: 'user', content: v }];
  return Array.isArray(v) ? v : [];
}

function summarize(turn: Json): string {
  if (turn.type === 'function_call') return `calls ${String(turn.name)}(${jsonText(turn.arguments)})`;
  if (turn.type === 'function_call_output')
    return `tool result for ${String(turn.call_id)}: ${String(turn.output).slice(0, 120)}`;
  if (turn.role === 'tool')
    return `tool result for ${String(turn.tool_call_id)}: ${String(textOf(turn.content) ?? '').slice(0, 120)}`;
  const parts: string[] = [];
  if (Array.isArray(turn.tool_calls))
    for (const c of turn.tool_calls)
      if (isObj(c) && isObj(c.function))
        parts.push(`calls ${String(c.function.name)}(${String(c.function.arguments)})`);
  if (typeof turn.content === 'string') parts.unshift(turn.content);
  else if (Array.isArray(turn.content)) {
    for (const p of turn.content) {
      if (!isObj(p)) continue;
      if (typeof p.text === 'string') parts.push(p.text);
      else if (p.type === 'image' || p.type === 'image_url' || p.type === 'input_image') parts.push('[image]');
      else if (documentOf(p)) parts.push(`[${documentOf(p)!.name}]`);
      else if (p.type === 'tool_use') parts.push(`calls ${String(p.name)}(${JSON.stringify(p.input)})`);
      else if (p.type === 'tool_result')
        parts.push(`tool result: ${typeof p.content === 'string' ? p.content : JSON.stringify(p.content)}`);
      else if (p.type === 'thinking') parts.push('[thinking]');
      else parts.push(`[${String(p.type)}]`);
    }
  }
  return parts.join(' · ');
}

export function getTurns(protocol: ProtocolId, body: Body): TurnView[] {
  const turns = turnsOf(protocol, body);
  const start =
    protocol === 'chat' && isObj(turns[0]) && (turns[0].role === 'system' || turns[0].role === 'developer') ? 1 : 0;
  return turns.slice(start).map((t) => {
    if (!isObj(t)) return { role: '?', images: [], documents: [], summary: JSON.stringify(t) };
    const role = typeof t.role === 'string' ? t.role : jsonText(t.type, 'item');
    const cached = Array.isArray(t.content) && t.content.some((p) => isObj(p) && isObj(p.cache_control));
    const message = t.type === undefined || t.type === 'message';
    const images =
      message && Array.isArray(t.content)
        ? t.content.flatMap((p, part) => (imageSrc(p) === undefined ? [] : [{ part, src: imageSrc(p)! }]))
        : [];
    const documents =
      message && Array.isArray(t.content)
        ? t.content.flatMap((p, part) => {
            const doc = documentOf(p);
            return doc ? [{ ...doc, part }] : [];
          })
        : [];
    const text = message ? editableText(t.content) : undefined;
    return { role, text, images, documents, summary: summarize(t), cached };
  });
}

function withTurns(protocol: ProtocolId, body: Body, fn: (turns: unknown[], offset: number) => unknown[]): Body {
  const turns = [...turnsOf(protocol, body)];
  const offset =
    protocol === 'chat' && isObj(turns[0]) && (turns[0].role === 'system' || turns[0].role === 'developer') ? 1 : 0;
  return { ...body, [turnsKey(protocol)]: fn(turns, offset) };
}

export function setTurnText(protocol: ProtocolId, body: Body, i: number, text: string): Body {
  return withTurns(protocol, body, (turns, off) => {
    const t = turns[i + off];
    if (!isObj(t)) return turns;
    if (Array.isArray(t.content) && t.content.length === 1 && isText(t.content[0]))
      turns[i + off] = { ...t, content: [{ ...t.content[0], text }] };
    else if (Array.isArray(t.content) && t.content.some(isAttachment)) {
      // Beside images and documents the text is a part of its own, first (where typing puts it), and no part when emptied:
      // an empty text block is a 400 on Messages.
      const at = t.content.findIndex(isText);
      const content = [...(t.content as unknown[])];
      if (at >= 0) {
        if (text === '') content.splice(at, 1);
        else content[at] = { ...(content[at] as Json), text };
      } else if (text !== '') content.unshift({ type: protocol === 'responses' ? 'input_text' : 'text', text });
      turns[i + off] = { ...t, content };
    } else turns[i + off] = { ...t, content: text };
    return turns;
  });
}

/** Takes one image or document part out of a turn's content; the turn stays, with its text. */
export function removeAttachment(protocol: ProtocolId, body: Body, i: number, part: number): Body {
  return withTurns(protocol, body, (turns, off) => {
    const t = turns[i + off];
    if (isObj(t) && Array.isArray(t.content) && isAttachment(t.content[part]))
      turns[i + off] = { ...t, content: t.content.filter((_, j) => j !== part) };
    return turns;
  });
}

export function setTurnRole(protocol: ProtocolId, body: Body, i: number, role: string): Body {
  return withTurns(protocol, body, (turns, off) => {
    const t = turns[i + off];
    if (isObj(t)) turns[i + off] = { ...t, role };
    return turns;
  });
}

export function removeTurn(protocol: ProtocolId, body: Body, i: number): Body {
  return withTurns(protocol, body, (turns, off) => turns.filter((_, j) => j !== i + off));
}

/** Messages: put (or take off) a cache_control breakpoint on the turn's last block. */
export function setTurnCached(body: Body, i: number, on: boolean): Body {
  return withTurns('messages', body, (turns) => {
    const t = turns[i];
    if (!isObj(t)) return turns;
    const blocks =
      typeof t.content === 'string'
        ? [{ type: 'text', text: t.content }]
        : Array.isArray(t.content)
          ? [...(t.content as unknown[])]
          : [];
    if (!blocks.length) return turns;
    const last = { ...(blocks[blocks.length - 1] as Json) };
    if (on) last.cache_control = { type: 'ephemeral' };
    else delete last.cache_control;
    blocks[blocks.length - 1] = last;
    turns[i] = { ...t, content: blocks };
    return turns;
  });
}

/**
 * Adds an image (base64), in the protocol's own part shape, to the last turn when that is a user turn, or else
 * as a new user turn: after an assistant turn or tool results, an earlier user turn is not the one being written.
 */
export function addImage(protocol: ProtocolId, body: Body, mediaType: string, base64: string): Body {
  const part =
    protocol === 'messages'
      ? { type: 'image', source: { type: 'base64', media_type: mediaType, data: base64 } }
      : protocol === 'chat'
        ? { type: 'image_url', image_url: { url: `data:${mediaType};base64,${base64}`, detail: 'auto' } }
        : { type: 'input_image', image_url: `data:${mediaType};base64,${base64}`, detail: 'auto' };
  return addPart(protocol, body, part);
}

/** Adds a content part (an image or a document) where addImage puts an image. */
export function addPart(protocol: ProtocolId, body: Body, part: Json): Body {
  const textType = protocol === 'responses' ? 'input_text' : 'text';
  return withTurns(protocol, body, (turns) => {
    const idx = turns.length - 1;
    const t = turns[idx];
    if (!isObj(t) || t.role !== 'user' || (t.type !== undefined && t.type !== 'message'))
      return [...turns, { role: 'user', content: [part] }];
    const content =
      typeof t.content === 'string'
        ? [{ type: textType, text: t.content }]
        : Array.isArray(t.content)
          ? [...(t.content as unknown[])]
          : [];
    turns[idx] = { ...t, content: [...content, part] };
    return turns;
  });
}

// ---- stop sequences ----

/** Where the protocol keeps its stop sequences. */
export const stopsKey = (protocol: ProtocolId) => (protocol === 'messages' ? 'stop_sequences' : 'stop');

export function setStops(protocol: ProtocolId, body: Body, text: string): Body {
  return setField(body, stopsKey(protocol), readStops(text));
}

/** One stop sequence per line; empty lines are not stop sequences. */
function readStops(text: string): string[] | undefined {
  const list = text.split('\n').filter((s) => s.length > 0);
  return list.length ? list : undefined;
}

// ---- text fields ----

/** What a field's text means for the body: the value to write (undefined removes the field), or why it has none. */
export type FieldReading = { value: unknown } | { error: string };

/** How a text field shows one body value and reads what the user typed (see `useFieldText`). */
export interface FieldCodec {
  format(value: unknown): string;
  read(text: string): FieldReading;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number, typed in decimal (`0.`, `.5`, `1e3`); empty text removes the field. */
export const numberText: FieldCodec = {
  format: (value) => (typeof value === 'number' ? String(value) : ''),
  read(text) {
    const t = text.trim();
    if (t === '') return { value: undefined };
    if (!DECIMAL.test(t)) return { error: 'Not a number. Send waits until it is one, or empty.' };
    const n = Number(t);
    return Number.isFinite(n)
      ? { value: n }
      : { error: 'Too large to be a JSON number. Send waits until it fits, or is empty.' };
  },
};

/** Stop sequences, one per line. */
export const stopsText: FieldCodec = {
  format: (value) => (Array.isArray(value) ? value.join('\n') : typeof value === 'string' ? value : ''),
  read: (text) => ({ value: readStops(text) }),
};

// ---- fields whose edits touch their neighbours ----

/**
 * Messages `tool_choice` is an object: picking another type keeps what else the user put in it
 * (`disable_parallel_tool_use`…); only `name` goes, since it belongs to `type: "tool"` alone.
 * Chat and Responses take a string here (a named tool is an object edited in the JSON).
 */
export function setStream(protocol: ProtocolId, body: Body, on: boolean): Body {
  const next = setField(body, 'stream', on);
  if (protocol !== 'chat') return next;
  if (!on) return setField(next, 'stream_options', undefined);
  return isObj(body.stream_options) ? next : setField(next, 'stream_options', { include_usage: true });
}

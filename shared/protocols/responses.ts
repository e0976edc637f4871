/**
 * OpenAI Responses (docs/protocols.md §4): the stream fold (the non-streaming reader is in responses-body.ts).
 * Output items from `response.output_item.done` are the truth (as in Codex); deltas are for display while streaming.
 * Completion needs a terminal event: `[DONE]` is relay noise here, never success.
 */
import { bodyErrorOf, errorEventOf } from '../errors';
import {
  CONTENT_STEP,
  QUIET_STEP,
  completeToolCall,
  createPieces,
  type AppendWatch,
  createWarnings,
  errorOutcome,
  excerpt,
  isObject,
  openAiUsage,
  snapshot,
  str,
  truncatedOutcome,
} from './fold-kit';
import { parseEvent } from './sse';
import { blocksFromItem, failedError, incompleteOutcome, partBlock, summaryText, toolFromItem } from './responses-body';
import type { FastDelta } from './fast-json';
import type { Block, FoldOutcome, FoldStep, ParsedEvent, SseMessage, StreamError, StreamFold, Usage } from './types';

type ToolBlock = Extract<Block, { kind: 'tool_call' }>;
type TextLike = Extract<Block, { kind: 'text' | 'thinking' | 'refusal' }>;

/** One output item and the blocks it produced, in content order. */
interface ItemSlot {
  type: string;
  id?: string;
  /** message: content parts by content_index; reasoning: one thinking block at key 0; others: key 0. */
  parts: Map<number, Block>;
  /** Reasoning: the summary index the last delta belonged to, to separate summaries. */
  lastSummary?: number;
}

const TERMINALS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

export function createResponsesFold(watch?: AppendWatch): StreamFold {
  const warnings = createWarnings();
  const pieces = createPieces(watch);
  const appendText = (b: { text: string }, d: string) => {
    b.text += d;
    watch?.(b, d);
  };
  const items = new Map<number, ItemSlot>();
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown } = {};
  let usage: Usage = {};
  let terminal: string | undefined;
  let error: StreamError | undefined;
  let incompleteReason: string | undefined;
  let lastSeq: number | undefined;
  /**
   * The text part the last fast text delta went to, by its output and content index: a firehose sends thousands
   * in a row to one part. Forgotten at any other event, since only those add or replace items and parts.
   */
  let hot: { outputIndex: number; contentIndex: number; part: TextLike } | undefined;
  let count = 0;
  let created = false;
  /** Output order (output_index, then content_index), rebuilt only after a block was added or replaced. */
  let order: Block[] = [];
  let dirty = false;

  function ordered(): Block[] {
    if (dirty) {
      order = [];
      for (const i of [...items.keys()].sort((x, y) => x - y)) {
        const parts = items.get(i)!.parts;
        for (const k of [...parts.keys()].sort((x, y) => x - y)) order.push(parts.get(k)!);
      }
      dirty = false;
    }
    return order;
  }

  function addPart(slot: ItemSlot, key: number, block: Block): void {
    slot.parts.set(key, block);
    dirty = true;
  }

  function itemAt(index: unknown, type = 'message'): ItemSlot | undefined {
    if (typeof index !== 'number') return undefined;
    let slot = items.get(index);
    if (!slot) {
      slot = { type, parts: new Map() };
      items.set(index, slot);
    }
    return slot;
  }

  function textPart(json: Record<string, unknown>, kind: 'text' | 'refusal'): TextLike | undefined {
    return textPartAt(json.output_index, json.content_index, json.type, kind, json.item_id);
  }

  /**
   * The item an event is about: by output_index, else (a relay that drops it, as Codex's fixtures do on
   * output_item.done) by the item_id of an item already announced.
   */
  function itemFor(outputIndex: unknown, itemId: unknown, type?: string): ItemSlot | undefined {
    return itemAt(outputIndex, type) ?? slotById(itemId);
  }

  function textPartAt(
    outputIndex: unknown,
    contentIndex: unknown,
    type: unknown,
    kind: 'text' | 'refusal',
    itemId: unknown,
  ): TextLike | undefined {
    const slot = itemFor(outputIndex, itemId);
    if (!slot) {
      warnings.add(
        `no-index:${kind}`,
        `${String(type)} without an output_index or the item_id of an announced item ignored.`,
      );
      return undefined;
    }
    const key = typeof contentIndex === 'number' ? contentIndex : 0;
    const existing = slot.parts.get(key);
    if (existing && existing.kind === kind) return existing;
    const b = { kind, text: '' } as TextLike;
    addPart(slot, key, b);
    return b;
  }

  function thinkingPart(json: Record<string, unknown>): TextLike | undefined {
    const slot = itemFor(json.output_index, json.item_id, 'reasoning');
    return slot && thinkingOf(slot);
  }

  function thinkingOf(slot: ItemSlot): TextLike {
    const existing = slot.parts.get(0);
    if (existing && existing.kind === 'thinking') return existing;
    const b: TextLike = { kind: 'thinking', text: '' };
    addPart(slot, 0, b);
    return b;
  }

  function toolPart(json: Record<string, unknown>): ToolBlock | undefined {
    return toolPartAt(json.output_index, json.item_id, json.name, json.type);
  }

  function toolPartAt(outputIndex: unknown, itemId: unknown, name: unknown, type: unknown): ToolBlock | undefined {
    const slot = itemFor(outputIndex, itemId, 'function_call');
    if (!slot) {
      warnings.add(
        'no-index:args',
        `${String(type)} without an output_index or the item_id of an announced item ignored.`,
      );
      return undefined;
    }
    const existing = slot.parts.get(0);
    if (existing && existing.kind === 'tool_call') return existing;
    const b = toolFromItem({ id: itemId, name }, false);
    addPart(slot, 0, b);
    return b;
  }

  /**
   * Sets a text-like block to the text a `.done` event (or a whole item) carries. True when that brings text
   * no delta carried: a relay that sends only done events still shows when the first text arrived.
   */
  function settle(b: TextLike, text: string): boolean {
    const fresh = b.text === '' && text !== '';
    b.text = text;
    return fresh;
  }

  /** True when the item brought visible content (text, thinking, tool arguments) no delta had carried. */
  function onItem(json: Record<string, unknown>, isDone: boolean): boolean {
    const item = json.item;
    if (!isObject(item)) return false;
    const type = str(item.type) ?? 'unknown';
    const slot = itemAt(json.output_index, type) ?? slotById(item.id) ?? itemAt(nextIndex(), type)!;
    slot.type = type;
    if (typeof item.id === 'string') slot.id = item.id;
    if (!isDone) {
      // Added: create what the item already says; deltas fill it in.
      let content = false;
      if (type === 'reasoning') {
        const b = thinkingPart({ output_index: json.output_index ?? indexOf(slot) });
        const text = summaryText(item);
        if (b && text) content = settle(b, text);
      } else if (type === 'function_call') {
        const b = toolFromItem(item, false);
        addPart(slot, 0, b);
        content = b.argsText !== '';
      } else if (type === 'message') {
        if (Array.isArray(item.content)) {
          item.content.forEach((part, i) => {
            const b = isObject(part) ? partBlock(part) : undefined;
            if (b) addPart(slot, i, b);
            if (b && (b.kind === 'text' || b.kind === 'refusal') && b.text !== '') content = true;
          });
        }
      } else {
        addPart(slot, 0, { kind: 'other', type, raw: item });
      }
      return content;
    }
    // Done: the item is the truth for its blocks.
    if (type === 'reasoning') {
      const text = summaryText(item);
      const b = thinkingPart({ output_index: json.output_index ?? indexOf(slot) });
      if (b?.kind === 'thinking') b.item = item;
      return b !== undefined && text !== undefined && settle(b, text);
    }
    const fresh = blocksFromItem(item);
    let content = false;
    if (type === 'message') {
      fresh.forEach((b, i) => {
        const existing = slot.parts.get(i);
        if (existing && existing.kind === b.kind && (b.kind === 'text' || b.kind === 'refusal')) {
          if (settle(existing as TextLike, b.text)) content = true;
        } else {
          addPart(slot, i, b);
          if ((b.kind === 'text' || b.kind === 'refusal') && b.text !== '') content = true;
        }
      });
      return content;
    }
    const existing = slot.parts.get(0);
    const b = fresh[0];
    if (existing && existing.kind === 'tool_call' && b.kind === 'tool_call') {
      existing.id = b.id || existing.id;
      existing.name = b.name || existing.name;
      if (b.argsText !== '' && existing.argsText === '') content = true;
      if (b.argsText !== '' || existing.argsText === '') existing.argsText = b.argsText;
      completeToolCall(existing);
    } else {
      addPart(slot, 0, b);
      content = (b.kind === 'tool_call' && b.argsText !== '') || (b.kind === 'thinking' && b.text !== '');
    }
    return content;
  }

  /** Codex's own fixtures send output_item.done without output_index: match by item id, else append. */
  function slotById(id: unknown): ItemSlot | undefined {
    if (typeof id !== 'string') return undefined;
    for (const slot of items.values()) if (slot.id === id) return slot;
    return undefined;
  }

  function nextIndex(): number {
    let max = -1;
    for (const i of items.keys()) max = Math.max(max, i);
    return max + 1;
  }

  function indexOf(slot: ItemSlot): number | undefined {
    for (const [i, s] of items) if (s === slot) return i;
    return undefined;
  }

  function onResponse(json: Record<string, unknown>): void {
    const r = json.response;
    if (!isObject(r)) return;
    if (typeof r.id === 'string') head.id = r.id;
    if (typeof r.model === 'string') head.model = r.model;
    if (isObject(r.usage)) {
      head.rawUsage = r.usage;
      usage = openAiUsage(r.usage);
    }
  }

  /** A relay that skips the item events still sends the final output: use it when nothing else arrived. */
  function adoptFinalOutput(r: unknown): boolean {
    if (!isObject(r) || !Array.isArray(r.output) || items.size > 0) return false;
    let content = false;
    r.output.forEach((item, i) => {
      if (isObject(item) && onItem({ output_index: i, item }, true)) content = true;
    });
    return content;
  }

  /** The same as the two delta cases in `push`, from the values the fast path read (see fast-json.ts). */
  function onFastDelta(d: Extract<FastDelta, { family: 'responses' }>): boolean {
    checkSeq(d.seq);
    if (!created) warnings.add('before-created', `${d.kind} arrived before response.created.`);
    if (d.kind === 'response.output_text.delta') {
      if (hot === undefined || hot.outputIndex !== d.outputIndex || hot.contentIndex !== d.contentIndex) {
        // The output index always finds (or opens) the item, so a text delta's item id is never needed.
        const part = textPartAt(d.outputIndex, d.contentIndex, d.kind, 'text', undefined);
        hot = part && { outputIndex: d.outputIndex, contentIndex: d.contentIndex, part };
      }
      if (hot) pieces.add(hot.part, 'text', d.value);
    } else {
      // An arguments delta may put a tool call where the text part was (a relay mixing up output indexes).
      hot = undefined;
      const b = toolPartAt(d.outputIndex, d.itemId, undefined, d.kind);
      if (b) pieces.add(b, 'argsText', d.value);
    }
    return d.value !== '';
  }

  function checkSeq(seq: unknown): void {
    if (typeof seq !== 'number') return;
    if (lastSeq !== undefined && seq !== lastSeq + 1) {
      warnings.add('seq', `sequence gap: expected ${lastSeq + 1}, got ${seq}`);
    }
    lastSeq = seq;
  }

  function push(message: SseMessage, parsed: ParsedEvent = parseEvent(message)): FoldStep {
    count++;
    if (parsed.done) {
      // `[DONE]` is appended by some relays and the Open Responses spec: noise, never completion.
      if (!terminal)
        warnings.add(
          'done',
          'A [DONE] sentinel arrived before response.completed; it does not complete a Responses stream and was ignored.',
        );
      return QUIET_STEP;
    }
    if (terminal) {
      warnings.add('after-terminal', `${parsed.type} arrived after ${terminal} and was ignored.`);
      return QUIET_STEP;
    }
    const fast = parsed.delta;
    if (fast?.family === 'responses' && message.event !== 'error') {
      return onFastDelta(fast) ? CONTENT_STEP : QUIET_STEP;
    }
    pieces.flush();
    hot = undefined;
    const step: FoldStep = { content: false, terminal: false };
    const json = parsed.json;
    if (!isObject(json) && message.event === 'error') {
      // `event: error` with a plain-text payload is still the gateway reporting a failure.
      error = { message: excerpt(message.data, 200) || 'An error event arrived without details.' };
      terminal = 'error';
      step.terminal = true;
      return step;
    }
    if (!isObject(json)) {
      warnings.add('malformed', `Event ${count} is not a JSON object and was skipped: ${excerpt(message.data)}`);
      return step;
    }
    checkSeq(json.sequence_number);
    // The `event:` line is the event's name; an `error` line wins over a payload type no spec lists.
    const type = message.event === 'error' ? 'error' : typeof json.type === 'string' ? json.type : message.event;
    if (!created && type !== 'response.created' && type !== undefined && !TERMINALS.has(type)) {
      warnings.add('before-created', `${type} arrived before response.created.`);
    }
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        created = true;
        onResponse(json);
        break;
      case 'response.output_item.added':
        step.content = onItem(json, false);
        break;
      case 'response.output_item.done':
        step.content = onItem(json, true);
        break;
      case 'response.content_part.added':
      case 'response.content_part.done': {
        const part = json.part;
        if (isObject(part) && (part.type === 'output_text' || part.type === 'refusal')) {
          const b = textPart(json, part.type === 'refusal' ? 'refusal' : 'text');
          const text = str(part.type === 'refusal' ? part.refusal : part.text);
          // A part that arrives with its text (a relay that sends no deltas) is the first sight of that text.
          if (b && text !== undefined && text !== '') step.content = settle(b, text);
        }
        break;
      }
      case 'response.output_text.delta': {
        const d = str(json.delta) ?? '';
        const b = textPart(json, 'text');
        if (b) appendText(b, d);
        step.content = d !== '';
        break;
      }
      case 'response.output_text.done': {
        const b = textPart(json, 'text');
        if (b && typeof json.text === 'string') step.content = settle(b, json.text);
        break;
      }
      case 'response.refusal.delta': {
        const d = str(json.delta) ?? '';
        const b = textPart(json, 'refusal');
        if (b) appendText(b, d);
        step.content = d !== '';
        break;
      }
      case 'response.refusal.done': {
        const b = textPart(json, 'refusal');
        if (b && typeof json.refusal === 'string') step.content = settle(b, json.refusal);
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const d = str(json.delta) ?? '';
        const slot = itemFor(json.output_index, json.item_id, 'reasoning');
        if (!slot) break;
        const b = thinkingOf(slot);
        const index =
          typeof json.summary_index === 'number'
            ? json.summary_index
            : typeof json.content_index === 'number'
              ? json.content_index
              : 0;
        // Summaries are separate paragraphs: keep them apart as the done item will.
        if (slot.lastSummary !== undefined && index !== slot.lastSummary && b.text !== '') b.text += '\n\n';
        slot.lastSummary = index;
        appendText(b, d);
        step.content = d !== '';
        break;
      }
      case 'response.function_call_arguments.delta': {
        const d = str(json.delta) ?? '';
        const b = toolPart(json);
        if (b) {
          b.argsText += d;
          watch?.(b, d);
        }
        step.content = d !== '';
        break;
      }
      case 'response.function_call_arguments.done': {
        const b = toolPart(json);
        if (!b) break;
        if (typeof json.arguments === 'string') b.argsText = json.arguments;
        if (typeof json.name === 'string' && !b.name) b.name = json.name;
        completeToolCall(b);
        break;
      }
      case 'response.completed':
        onResponse(json);
        step.content = adoptFinalOutput(json.response);
        terminal = type;
        head.stopReason = (isObject(json.response) && str(json.response.status)) || 'completed';
        step.terminal = true;
        break;
      case 'response.incomplete': {
        onResponse(json);
        step.content = adoptFinalOutput(json.response);
        terminal = type;
        const r = isObject(json.response) ? json.response : {};
        const details = isObject(r.incomplete_details) ? r.incomplete_details : {};
        incompleteReason = str(details.reason) ?? 'unknown';
        head.stopReason = `incomplete:${incompleteReason}`;
        step.terminal = true;
        break;
      }
      case 'response.failed':
        onResponse(json);
        terminal = type;
        error = failedError(json);
        head.stopReason = 'failed';
        step.terminal = true;
        break;
      case 'error':
        terminal = type;
        error =
          json.type === 'error' || json.type === undefined
            ? (bodyErrorOf({ ...json, type: 'error' }) ?? { message: excerpt(message.data, 200) })
            : errorEventOf(json);
        step.terminal = true;
        break;
      default: {
        // An OpenAI envelope with no type (wrong-family relay error) ends the stream too.
        const err = json.type === undefined ? bodyErrorOf(json) : undefined;
        if (err) {
          terminal = 'error';
          error = err;
          step.terminal = true;
        }
        // Hosted-tool progress, annotations and types added later: ignored, kept in the Events list.
        break;
      }
    }
    return step;
  }

  return {
    push,
    transcript: () => {
      pieces.flush();
      return snapshot(head, ordered(), usage);
    },
    blocks: () => {
      pieces.flush();
      return ordered();
    },
    usage: () => ({ ...usage }),
    warnings: () => warnings.list(),
    end(): FoldOutcome {
      const list = warnings.list();
      if (error) return errorOutcome(error, list);
      if (!terminal) return truncatedOutcome('response.completed', count, list);
      if (terminal === 'response.incomplete') return incompleteOutcome(incompleteReason, list);
      return { verdict: 'complete', reason: 'The stream ended with response.completed.', warnings: list };
    },
  };
}

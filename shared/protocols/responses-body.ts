/**
 * Output items of a Responses body read whole (docs/protocols.md §4.2): the blocks one item makes, which the
 * stream fold (responses.ts) uses for `response.output_item.done`, and the non-streaming reader.
 */
import { bodyErrorOf } from '../errors';
import { completeToolCall, isObject, openAiUsage, snapshot, str } from './fold-kit';
import type { Block, FoldOutcome, ResponseReading, StreamError, Usage } from './types';

type ToolBlock = Extract<Block, { kind: 'tool_call' }>;

export function summaryText(item: Record<string, unknown>): string | undefined {
  const pick = (list: unknown) =>
    Array.isArray(list)
      ? list.filter((p) => isObject(p) && typeof p.text === 'string').map((p) => (p as { text: string }).text)
      : [];
  const summary = pick(item.summary);
  if (summary.length) return summary.join('\n\n');
  // Raw reasoning (`reasoning_text` content) on models that expose it.
  const content = pick(item.content);
  return content.length ? content.join('\n\n') : undefined;
}

export function toolFromItem(item: Record<string, unknown>, complete: boolean): ToolBlock {
  const b: ToolBlock = {
    kind: 'tool_call',
    // The tool result must quote call_id, not the item id (fc_…).
    id: str(item.call_id) ?? str(item.id) ?? '',
    name: str(item.name) ?? '',
    argsText: str(item.arguments) ?? '',
    complete: false,
  };
  if (complete) completeToolCall(b);
  return b;
}

export function partBlock(part: Record<string, unknown>): Block | undefined {
  if (part.type === 'output_text') return { kind: 'text', text: str(part.text) ?? '' };
  if (part.type === 'refusal') return { kind: 'refusal', text: str(part.refusal) ?? '' };
  return undefined;
}

/** The blocks of one complete output item (docs/protocols.md §4.2), in order. */
export function blocksFromItem(item: Record<string, unknown>): Block[] {
  const type = str(item.type) ?? 'unknown';
  if (type === 'message') {
    const out: Block[] = [];
    if (Array.isArray(item.content)) {
      for (const part of item.content) {
        if (!isObject(part)) continue;
        out.push(partBlock(part) ?? { kind: 'other', type: str(part.type) ?? 'unknown', raw: part });
      }
    }
    return out;
  }
  if (type === 'reasoning') return [{ kind: 'thinking', text: summaryText(item) ?? '', item }];
  if (type === 'function_call') return [toolFromItem(item, true)];
  return [{ kind: 'other', type, raw: item }];
}

/** The error a `response.failed` event carries in `response.error`, or a generic one. */
export function failedError(json: Record<string, unknown>): StreamError {
  const r = isObject(json.response) ? json.response : {};
  const e = isObject(r.error) ? r.error : {};
  return {
    type: str(e.type) ?? 'response.failed',
    ...(str(e.code) ? { code: str(e.code) } : {}),
    message: str(e.message) ?? 'The response failed without an error message.',
  };
}

/** A stream that ended with response.incomplete: complete as far as it goes, with a warning that it stops early. */
export function incompleteOutcome(reason: string | undefined, warnings: string[]): FoldOutcome {
  warnings.push(`The response is incomplete (${reason}): the output stops early.`);
  return { verdict: 'complete', reason: `The stream ended with response.incomplete (${reason}).`, warnings };
}

/** A non-streaming /v1/responses body (docs/protocols.md §4.2). A 2xx body holding an error envelope sets `error`. */
export function readResponsesResponse(json: unknown): ResponseReading {
  const warnings: string[] = [];
  let error = bodyErrorOf(json);
  if (!isObject(json)) {
    return {
      transcript: { blocks: [], usage: {} },
      warnings: ['The body is not a JSON object.'],
      ...(error ? { error } : {}),
    };
  }
  const blocks: Block[] = [];
  if (Array.isArray(json.output)) {
    for (const item of json.output) if (isObject(item)) blocks.push(...blocksFromItem(item));
  } else if (!error) {
    warnings.push('The body has no output array.');
  }
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown } = {};
  if (typeof json.id === 'string') head.id = json.id;
  if (typeof json.model === 'string') head.model = json.model;
  const status = str(json.status);
  if (status === 'incomplete') {
    const details = isObject(json.incomplete_details) ? json.incomplete_details : {};
    const reason = str(details.reason) ?? 'unknown';
    head.stopReason = `incomplete:${reason}`;
    warnings.push(`The response is incomplete (${reason}): the output stops early.`);
  } else if (status !== undefined) {
    head.stopReason = status;
    if (status === 'failed' && !error)
      error = { type: 'response.failed', message: 'The response failed without an error message.' };
    if (status === 'queued' || status === 'in_progress') {
      warnings.push(
        `The response is ${status} (background mode): its output cannot be fetched through the gateway's endpoints.`,
      );
    }
  }
  let usage: Usage = {};
  if (isObject(json.usage)) {
    head.rawUsage = json.usage;
    usage = openAiUsage(json.usage);
  }
  const transcript = snapshot(head, blocks, usage);
  return error ? { transcript, error, warnings } : { transcript, warnings };
}

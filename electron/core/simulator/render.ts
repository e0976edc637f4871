/**
 * Renders a planned reply in each protocol's exact wire format (docs/protocols.md §1.7/§1.8, §3.3/§3.6,
 * §4.2/§4.5): non-streaming bodies and the ordered list of stream frames.
 */
import type { ProtocolId } from '../../../shared/protocols/types';
import { argChunks, deltas, type Conversation, type Plan } from './conversation';
import type { SimModel } from './catalogue';

type Json = Record<string, unknown>;

export interface Frame {
  event?: string;
  /** An object is JSON-encoded; a string is sent as is (e.g. `[DONE]`). */
  data: Json | string;
  /** A text/thinking/argument delta: faults cut and pace around these. */
  delta?: boolean;
}

export interface Meta {
  id: string;
  created: number;
}

function messagesUsage(plan: Plan, model: SimModel, final: boolean): Json {
  const u: Json = {
    input_tokens: plan.input - plan.cache.read - plan.cache.write,
    output_tokens: final ? plan.output : 1,
  };
  if (model.caching) {
    u.cache_creation_input_tokens = plan.cache.write;
    u.cache_read_input_tokens = plan.cache.read;
    u.cache_creation = { ephemeral_5m_input_tokens: plan.cache.write, ephemeral_1h_input_tokens: 0 };
  }
  u.service_tier = 'standard';
  if (final && plan.reasoning) u.output_tokens_details = { thinking_tokens: plan.reasoning };
  return u;
}

export const SIGNATURE = 'EqQBCkYIBxgCKkDsimulatedsignature0123456789abcdefGHIJ==';

const messagesStop = (plan: Plan) =>
  ({ end: 'end_turn', tool: 'tool_use', max: 'max_tokens', stop_sequence: 'stop_sequence' })[plan.stop];

function messagesContent(plan: Plan): Json[] {
  const content: Json[] = [];
  if (plan.thinking) content.push({ type: 'thinking', thinking: plan.thinking, signature: SIGNATURE });
  if (plan.text) content.push({ type: 'text', text: plan.text, citations: null });
  if (plan.toolCall)
    content.push({
      type: 'tool_use',
      id: `toolu_${plan.toolCall.id}`,
      name: plan.toolCall.name,
      input: plan.toolCall.args,
    });
  return content;
}

export function messagesBody(plan: Plan, model: SimModel, meta: Meta): Json {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: model.id,
    content: messagesContent(plan),
    stop_reason: messagesStop(plan),
    stop_sequence: plan.stopSequence ?? null,
    stop_details: null,
    usage: messagesUsage(plan, model, true),
  };
}

export function messagesFrames(plan: Plan, model: SimModel, meta: Meta): Frame[] {
  const f: Frame[] = [];
  const ev = (data: Json, delta = false) => f.push({ event: String(data.type), data, delta });
  ev({
    type: 'message_start',
    message: {
      ...messagesBody(plan, model, meta),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: messagesUsage(plan, model, false),
    },
  });
  let index = 0;
  if (plan.thinking) {
    ev({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const d of deltas(plan.thinking))
      ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: d } }, true);
    ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: SIGNATURE } });
    ev({ type: 'content_block_stop', index });
    index++;
  }
  if (plan.text) {
    ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    ev({ type: 'ping' });
    for (const d of deltas(plan.text))
      ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: d } }, true);
    ev({ type: 'content_block_stop', index });
    index++;
  }
  if (plan.toolCall) {
    ev({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `toolu_${plan.toolCall.id}`, name: plan.toolCall.name, input: {} },
    });
    ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const c of argChunks(JSON.stringify(plan.toolCall.args)))
      ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: c } }, true);
    ev({ type: 'content_block_stop', index });
  }
  ev({
    type: 'message_delta',
    delta: { stop_reason: messagesStop(plan), stop_sequence: plan.stopSequence ?? null, stop_details: null },
    usage: messagesUsage(plan, model, true),
  });
  ev({ type: 'message_stop' });
  return f;
}

// ---- Chat Completions ----

const chatFinish = (plan: Plan, conv: Conversation) =>
  plan.stop === 'tool'
    ? typeof conv.toolChoice === 'object'
      ? 'stop'
      : 'tool_calls'
    : plan.stop === 'max'
      ? 'length'
      : 'stop';

function chatUsage(plan: Plan, model: SimModel): Json {
  const u: Json = { prompt_tokens: plan.input, completion_tokens: plan.output, total_tokens: plan.input + plan.output };
  u.prompt_tokens_details = model.caching ? { cached_tokens: plan.cache.read, audio_tokens: 0 } : undefined;
  u.completion_tokens_details = {
    reasoning_tokens: plan.reasoning,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  };
  if (!model.caching) delete u.prompt_tokens_details;
  return u;
}

export function chatBody(plan: Plan, model: SimModel, meta: Meta, conv: Conversation): Json {
  const message: Json = {
    role: 'assistant',
    content: plan.toolCall ? null : (plan.text ?? ''),
    refusal: null,
    annotations: [],
  };
  if (plan.toolCall) {
    message.tool_calls = [
      {
        id: `call_${plan.toolCall.id}`,
        type: 'function',
        function: { name: plan.toolCall.name, arguments: JSON.stringify(plan.toolCall.args) },
      },
    ];
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: model.id,
    system_fingerprint: 'fp_sim',
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinish(plan, conv) }],
    usage: chatUsage(plan, model),
  };
}

export function chatFrames(plan: Plan, model: SimModel, meta: Meta, conv: Conversation): Frame[] {
  const f: Frame[] = [];
  const chunk = (delta: Json, finish: string | null = null, isDelta = false) => {
    const data: Json = {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: model.id,
      system_fingerprint: 'fp_sim',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (conv.includeUsage) data.usage = null;
    f.push({ data, delta: isDelta });
  };
  chunk({ role: 'assistant', content: '', refusal: null });
  if (plan.toolCall) {
    const id = `call_${plan.toolCall.id}`;
    chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: plan.toolCall.name, arguments: '' } }] });
    for (const c of argChunks(JSON.stringify(plan.toolCall.args)))
      chunk({ tool_calls: [{ index: 0, function: { arguments: c } }] }, null, true);
  } else if (plan.text) {
    for (const d of deltas(plan.text)) chunk({ content: d }, null, true);
  }
  chunk({}, chatFinish(plan, conv));
  if (conv.includeUsage)
    f.push({
      data: {
        id: meta.id,
        object: 'chat.completion.chunk',
        created: meta.created,
        model: model.id,
        system_fingerprint: 'fp_sim',
        choices: [],
        usage: chatUsage(plan, model),
      },
    });
  f.push({ data: '[DONE]' });
  return f;
}

// ---- Responses ----

function responsesUsage(plan: Plan, model: SimModel): Json {
  const u: Json = { input_tokens: plan.input, output_tokens: plan.output, total_tokens: plan.input + plan.output };
  if (model.caching) u.input_tokens_details = { cached_tokens: plan.cache.read };
  u.output_tokens_details = { reasoning_tokens: plan.reasoning };
  return u;
}

function responsesOutput(plan: Plan, meta: Meta, conv: Conversation): Json[] {
  const out: Json[] = [];
  if (plan.thinking) {
    out.push({
      type: 'reasoning',
      id: `rs_${meta.id.slice(5)}`,
      summary: conv.reasoningSummary ? [{ type: 'summary_text', text: plan.thinking }] : [],
    });
  }
  if (plan.text && !plan.toolCall) {
    out.push({
      type: 'message',
      id: `msg_${meta.id.slice(5)}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: plan.text, annotations: [], logprobs: [] }],
    });
  }
  if (plan.toolCall) {
    out.push({
      type: 'function_call',
      id: `fc_${plan.toolCall.id}`,
      call_id: `call_${plan.toolCall.id}`,
      name: plan.toolCall.name,
      arguments: JSON.stringify(plan.toolCall.args),
      status: 'completed',
    });
  }
  return out;
}

const MIDSTREAM_FAILURE = { code: 'server_error', message: 'The upstream server failed mid-stream.' };

export function responsesBody(
  plan: Plan,
  model: SimModel,
  meta: Meta,
  conv: Conversation,
  body: Json,
  status = 'completed',
): Json {
  const incomplete = plan.stop === 'max';
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.created,
    status: status === 'completed' && incomplete ? 'incomplete' : status,
    background: body.background === true,
    error: status === 'failed' ? MIDSTREAM_FAILURE : null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    model: model.id,
    output: status === 'completed' ? responsesOutput(plan, meta, conv) : [],
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: typeof body.previous_response_id === 'string' ? body.previous_response_id : null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: typeof body.top_p === 'number' ? body.top_p : 1,
    truncation: 'disabled',
    usage: status === 'completed' ? responsesUsage(plan, model) : null,
    metadata: {},
  };
}

export function responsesFrames(plan: Plan, model: SimModel, meta: Meta, conv: Conversation, body: Json): Frame[] {
  const f: Frame[] = [];
  let seq = 0;
  const ev = (type: string, fields: Json, delta = false) =>
    f.push({ event: type, data: { type, ...fields, sequence_number: seq++ }, delta });
  const pending = responsesBody(plan, model, meta, conv, body, 'in_progress');
  ev('response.created', { response: pending });
  ev('response.in_progress', { response: pending });
  const items = responsesOutput(plan, meta, conv);
  items.forEach((item, output_index) => {
    const item_id = String(item.id);
    if (item.type === 'reasoning') {
      ev('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      if (conv.reasoningSummary && plan.thinking) {
        ev('response.reasoning_summary_part.added', {
          item_id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        for (const d of deltas(plan.thinking))
          ev('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta: d }, true);
        ev('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: plan.thinking });
        ev('response.reasoning_summary_part.done', {
          item_id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: plan.thinking },
        });
      }
      ev('response.output_item.done', { output_index, item });
    } else if (item.type === 'message') {
      const text = plan.text ?? '';
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', {
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      });
      for (const d of deltas(text))
        ev('response.output_text.delta', { item_id, output_index, content_index: 0, delta: d, logprobs: [] }, true);
      ev('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', {
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text, annotations: [], logprobs: [] },
      });
      ev('response.output_item.done', { output_index, item });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const c of argChunks(String(item.arguments)))
        ev('response.function_call_arguments.delta', { item_id, output_index, delta: c }, true);
      ev('response.function_call_arguments.done', {
        item_id,
        output_index,
        name: item.name,
        arguments: item.arguments,
      });
      ev('response.output_item.done', { output_index, item });
    }
  });
  const final = responsesBody(plan, model, meta, conv, body);
  ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return f;
}

export function renderBody(
  protocol: ProtocolId,
  plan: Plan,
  model: SimModel,
  meta: Meta,
  conv: Conversation,
  body: Json,
): Json {
  if (protocol === 'messages') return messagesBody(plan, model, meta);
  if (protocol === 'chat') return chatBody(plan, model, meta, conv);
  return responsesBody(plan, model, meta, conv, body);
}

export function renderFrames(
  protocol: ProtocolId,
  plan: Plan,
  model: SimModel,
  meta: Meta,
  conv: Conversation,
  body: Json,
): Frame[] {
  if (protocol === 'messages') return messagesFrames(plan, model, meta);
  if (protocol === 'chat') return chatFrames(plan, model, meta, conv);
  return responsesFrames(plan, model, meta, conv, body);
}

/**
 * The protocol's mid-stream failure frame (docs/protocols.md §6). `seq` is the Responses sequence number it takes:
 * the one after the last frame sent, so a client checking for gaps sees none. Its `response` is a whole
 * Response (created_at, status "failed", error, usage null…) like the response.completed it replaces.
 */
export function errorFrame(
  protocol: ProtocolId,
  seq: number,
  plan: Plan,
  model: SimModel,
  meta: Meta,
  conv: Conversation,
  body: Json,
): Frame {
  if (protocol === 'messages')
    return { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
  if (protocol === 'chat')
    return {
      data: {
        error: {
          message: 'The upstream server is overloaded; the stream was aborted.',
          type: 'server_error',
          param: null,
          code: 'server_is_overloaded',
        },
      },
    };
  return {
    event: 'response.failed',
    data: {
      type: 'response.failed',
      response: responsesBody(plan, model, meta, conv, body, 'failed'),
      sequence_number: seq,
    },
  };
}

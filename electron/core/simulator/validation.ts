/**
 * The request checks an upstream makes before it generates anything, and its 400 for each, in the route's
 * own envelope and words (docs/protocols.md §1.2, §3.2, §4.1): an output cap under 1, a temperature or top_p
 * out of range, a prompt longer than the model's context window. A Demo gateway that answered these would
 * teach a user that a request works which every real gateway refuses.
 */
import type { ServerResponse } from 'node:http';
import type { ProtocolId } from '../../../shared/protocols/types';
import type { SimModel } from './catalogue';
import type { Conversation } from './conversation';
import { baseHeaders, type Counter } from './replies';
import { inputTokens } from './tokens';

type Json = Record<string, unknown>;

/** What the upstream refuses, and how it names it: `param` and `code` are the OpenAI envelope's. */
export interface Invalid {
  message: string;
  param: string;
  code: string;
}

/** Tokens of prompt each simulated model takes: the first family's 200k, the OpenAI family's 128k. */
export function contextWindow(model: SimModel): number {
  return model.ownedBy === 'anthropic' ? 200_000 : 128_000;
}

/** The output cap fields each route reads (Chat takes either name). */
const CAPS: Record<ProtocolId, string[]> = {
  messages: ['max_tokens'],
  chat: ['max_completion_tokens', 'max_tokens'],
  responses: [],
};

/** Messages: temperature 0–1; OpenAI routes: 0–2. top_p is 0–1 on both. */
const RANGES: Record<ProtocolId, Record<string, [number, number]>> = {
  messages: { temperature: [0, 1], top_p: [0, 1] },
  chat: { temperature: [0, 2], top_p: [0, 1] },
  responses: { temperature: [0, 2], top_p: [0, 1] },
};

/** The first family validates like pydantic: "field: Input should be …". */
function messagesProblem(body: Json): string | undefined {
  const max = body.max_tokens;
  if (typeof max === 'number' && !Number.isInteger(max)) return 'max_tokens: Input should be a valid integer';
  if (typeof max === 'number' && max < 1) return 'max_tokens: Input should be greater than or equal to 1';
  for (const [field, [lo, hi]] of Object.entries(RANGES.messages)) {
    const v = body[field];
    if (v === undefined) continue;
    if (typeof v !== 'number') return `${field}: Input should be a valid number`;
    if (v < lo) return `${field}: Input should be greater than or equal to ${lo}`;
    if (v > hi) return `${field}: Input should be less than or equal to ${hi}`;
  }
  return undefined;
}

/** OpenAI's words: "Invalid 'x': integer below minimum value. Expected a value >= 1, but got 0 instead." */
function openaiProblem(protocol: ProtocolId, body: Json): Invalid | undefined {
  for (const field of CAPS[protocol]) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v))
      return {
        message: `Invalid type for '${field}': expected an integer, but got ${typeof v === 'number' ? 'a decimal' : `a ${typeof v}`} instead.`,
        param: field,
        code: 'invalid_type',
      };
    if (v < 1)
      return {
        message: `Invalid '${field}': integer below minimum value. Expected a value >= 1, but got ${v} instead.`,
        param: field,
        code: 'integer_below_min_value',
      };
  }
  for (const [field, [lo, hi]] of Object.entries(RANGES[protocol])) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number')
      return {
        message: `Invalid type for '${field}': expected a decimal, but got a ${typeof v} instead.`,
        param: field,
        code: 'invalid_type',
      };
    if (v < lo || v > hi) {
      const [where, bound] = v < lo ? ['below minimum', `>= ${lo}`] : ['above maximum', `<= ${hi}`];
      return {
        message: `Invalid '${field}': decimal ${where} value. Expected a value ${bound}, but got ${v} instead.`,
        param: field,
        code: v < lo ? 'decimal_below_min_value' : 'decimal_above_max_value',
      };
    }
  }
  return undefined;
}

/** A prompt over the model's window, in each route's words. */
function contextProblem(protocol: ProtocolId, conv: Conversation, model: SimModel): Invalid | undefined {
  const tokens = inputTokens(conv);
  const max = contextWindow(model);
  if (tokens <= max) return undefined;
  if (protocol === 'messages')
    return { message: `prompt is too long: ${tokens} tokens > ${max} maximum`, param: 'messages', code: '' };
  if (protocol === 'chat')
    return {
      message: `This model's maximum context length is ${max} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      param: 'messages',
      code: 'context_length_exceeded',
    };
  return {
    message: `Your input exceeds the context window of this model (${tokens} tokens > ${max} maximum). Please adjust your input and try again.`,
    param: 'input',
    code: 'context_length_exceeded',
  };
}

/** What the upstream would refuse in this request, or undefined when it would answer. */
export function invalidRequest(
  protocol: ProtocolId,
  body: Json,
  conv: Conversation,
  model: SimModel,
): Invalid | undefined {
  if (protocol === 'messages') {
    const message = messagesProblem(body);
    if (message) return { message, param: message.slice(0, message.indexOf(':')), code: '' };
  } else {
    const problem = openaiProblem(protocol, body);
    if (problem) return problem;
  }
  return contextProblem(protocol, conv, model);
}

/** The 400 for `problem`, in the envelope of the route's family (replies.ts sendError, with `param` filled). */
export function sendInvalid(res: ServerResponse, state: Counter, protocol: ProtocolId, problem: Invalid): void {
  const fam = protocol === 'messages' ? 'anthropic' : 'openai';
  const headers: Record<string, string> = { ...baseHeaders(state, fam), 'content-type': 'application/json' };
  const body =
    fam === 'anthropic'
      ? {
          type: 'error',
          error: { type: 'invalid_request_error', message: problem.message },
          request_id: headers['request-id'],
        }
      : {
          error: {
            message: problem.message,
            type: 'invalid_request_error',
            param: problem.param,
            code: problem.code || null,
          },
        };
  res.writeHead(400, headers).end(JSON.stringify(body));
}

/**
 * The token counter's source selection (issue 4), host-independent: the gateway call is injected.
 *
 * - Messages: the gateway's /v1/messages/count_tokens with the body cut down to what that endpoint takes.
 * - Chat / Responses on a first-family model (or when the user says "always"): translate to the Messages shape
 *   and ask the gateway, labelled "gateway count, via translation", with the translation's losses that change
 *   what is counted (a dropped seed or stop sequence does not).
 * - Otherwise, or when the gateway cannot answer (404, 400, 401, network, a stub 0): a local o200k_base estimate,
 *   saying why it is not a gateway count.
 *
 * Breakdown: count_tokens only counts whole requests, so one request per turn on every (debounced) edit would
 * multiply the gateway calls by the number of turns. Instead a gateway total is split by the local estimate's
 * proportions and says so in `breakdownNote`; an estimate's breakdown is the estimate itself.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { translateRequest, type Loss } from '../../shared/translate';
import type { ProtocolId } from '../../shared/protocols/types';
import type { TokenBreakdownItem, TokenCount, UseGateway } from '../../shared/contract/tokens';
import { isBase64, pdfPagesInText } from '../../shared/documents';
import { isObject } from '../../shared/is-object';
import { jsonText } from '../../shared/json-text';

type Json = Record<string, unknown>;

export interface CountDeps {
  countViaGateway(
    messagesBody: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ ok: true; inputTokens: number } | { ok: false; status?: number; message: string }>;
}

export interface CountRequest {
  protocol: ProtocolId;
  body: Record<string, unknown>;
  /** From the models list: 'anthropic' when the list entry was first-family shaped or owned_by anthropic. */
  modelFamily: 'anthropic' | 'openai' | 'unknown';
  /** The user's override. */
  useGateway?: UseGateway;
  breakdown?: boolean;
}

export const LABELS = {
  gateway: 'gateway count',
  'gateway-via-translation': 'gateway count, via translation',
  estimate: 'estimate',
} as const satisfies Record<TokenCount['source'], string>;

/**
 * What /v1/messages/count_tokens takes (docs/protocols.md §2). Everything else — max_tokens, stream,
 * sampling, stop sequences, metadata, service_tier and fields the user invented — is left out: strict validators reject
 * unknown fields, and none of them changes the input size.
 */
export const COUNT_TOKENS_FIELDS = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'cache_control',
  'output_config',
] as const;

export function countTokensBody(messagesBody: Json): Json {
  const out: Json = {};
  for (const key of COUNT_TOKENS_FIELDS) if (messagesBody[key] !== undefined) out[key] = messagesBody[key];
  return out;
}

/**
 * Rough fixed costs where text tokenising says nothing. An image costs 765 tokens at OpenAI's high detail for
 * 1024×1024 and up to ~1,600 on the first family; a PDF page costs about 1,500–3,000. The estimate only has to
 * be in the right range, and it says it is an estimate.
 */
export const IMAGE_TOKENS = 1000;
export const FILE_TOKENS = 1500;
/** Role markers and separators per message (OpenAI's chat format spends about 3 tokens per message). */
export const MESSAGE_OVERHEAD = 3;

export interface Estimate {
  total: number;
  breakdown: TokenBreakdownItem[];
}

function text(s: unknown): number {
  return typeof s === 'string' && s !== '' ? countO200k(s) : 0;
}

function json(v: unknown): number {
  if (v === undefined) return 0;
  return text(typeof v === 'string' ? v : JSON.stringify(v));
}

/** One content block or part of any of the three protocols. */
function partTokens(p: unknown): number {
  if (typeof p === 'string') return text(p);
  if (!isObject(p)) return 0;
  switch (p.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return text(p.text);
    case 'refusal':
      return text(p.refusal);
    case 'thinking':
      return text(p.thinking);
    case 'image':
    case 'image_url':
    case 'input_image':
      return IMAGE_TOKENS;
    case 'document':
      if (isObject(p.source) && p.source.type === 'text') return text(p.source.data);
      return isObject(p.source) ? fileTokens(p.source.media_type, p.source.data) : FILE_TOKENS;
    case 'file':
    case 'input_file': {
      const data = /^data:([^;,]+);base64,(.*)$/s.exec(jsonText((isObject(p.file) ? p.file : p).file_data));
      return data ? fileTokens(data[1], data[2]) : FILE_TOKENS;
    }
    case 'tool_use':
      return text(p.name) + json(p.input);
    case 'tool_result':
      return contentTokens(p.content);
    default:
      // Unknown shapes still cost something: count them as the JSON the model would see.
      return json(p);
  }
}

/** A PDF costs FILE_TOKENS a page (docs/protocols.md §8.1), a text file its text; anything else one FILE_TOKENS. */
function fileTokens(mediaType: unknown, b64: unknown): number {
  if (typeof b64 !== 'string' || !isBase64(b64)) return FILE_TOKENS;
  const binary = Buffer.from(b64, 'base64');
  if (mediaType === 'application/pdf') return FILE_TOKENS * pdfPagesInText(binary.toString('latin1'));
  if (mediaType === 'text/plain') return text(binary.toString('utf8'));
  return FILE_TOKENS;
}

function contentTokens(content: unknown): number {
  if (typeof content === 'string') return text(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce<number>((sum, p) => sum + partTokens(p), 0);
}

function toolTokens(body: Json): number {
  return json(body.tools) + json(body.tool_choice);
}

/**
 * A local count with o200k_base: the system prompt, each turn's text (tool calls and results included),
 * tool definitions as JSON, images and files at a fixed cost. Never throws on odd shapes.
 */
export function estimateTokens(protocol: ProtocolId, body: Record<string, unknown>): Estimate {
  let system = 0;
  const turns: TokenBreakdownItem[] = [];
  const addTurn = (kind: string, tokens: number) =>
    turns.push({ label: `turn ${turns.length + 1} (${kind})`, tokens: tokens + MESSAGE_OVERHEAD });
  const b = isObject(body) ? body : {};

  if (protocol === 'messages') {
    system += contentTokens(b.system);
    for (const m of Array.isArray(b.messages) ? b.messages : []) {
      if (!isObject(m)) continue;
      addTurn(typeof m.role === 'string' ? m.role : 'message', contentTokens(m.content));
    }
  } else if (protocol === 'chat') {
    for (const m of Array.isArray(b.messages) ? b.messages : []) {
      if (!isObject(m)) continue;
      const role = typeof m.role === 'string' ? m.role : 'message';
      let tokens = contentTokens(m.content) + text(m.refusal);
      if (Array.isArray(m.tool_calls)) {
        for (const c of m.tool_calls)
          if (isObject(c) && isObject(c.function)) tokens += text(c.function.name) + text(c.function.arguments);
      }
      if (role === 'system' || role === 'developer') system += tokens + MESSAGE_OVERHEAD;
      else addTurn(role === 'tool' ? 'tool result' : role, tokens);
    }
  } else {
    system += text(b.instructions);
    if (typeof b.input === 'string') addTurn('user', text(b.input));
    for (const item of Array.isArray(b.input) ? b.input : []) {
      if (!isObject(item)) continue;
      const type = item.type ?? 'message';
      if (type === 'message') {
        const role = typeof item.role === 'string' ? item.role : 'message';
        const tokens = contentTokens(item.content);
        if (role === 'system' || role === 'developer') system += tokens + MESSAGE_OVERHEAD;
        else addTurn(role, tokens);
      } else if (type === 'function_call') {
        addTurn('tool call', text(item.name) + text(item.arguments));
      } else if (type === 'function_call_output') {
        addTurn('tool result', contentTokens(item.output));
      } else if (type === 'reasoning') {
        const summary = Array.isArray(item.summary) ? item.summary : [];
        addTurn('reasoning', contentTokens(summary.map((s) => (isObject(s) ? s.text : undefined))));
      } else {
        addTurn(jsonText(type), json(item));
      }
    }
  }

  const breakdown: TokenBreakdownItem[] = [];
  if (system > 0) breakdown.push({ label: 'system', tokens: system });
  breakdown.push(...turns);
  const tools = toolTokens(b);
  if (tools > 0) breakdown.push({ label: 'tools', tokens: tools });
  return { total: breakdown.reduce((sum, i) => sum + i.tokens, 0), breakdown };
}

/** Splits a gateway total in the estimate's proportions; the parts add up to the total exactly. */
export function scaleBreakdown(items: TokenBreakdownItem[], total: number): TokenBreakdownItem[] {
  const sum = items.reduce((s, i) => s + i.tokens, 0);
  if (sum === 0 || items.length === 0) return items.map((i) => ({ ...i, tokens: 0 }));
  const exact = items.map((i) => (i.tokens * total) / sum);
  const out = exact.map((x, k) => ({ label: items[k].label, tokens: Math.floor(x) }));
  let rest = total - out.reduce((s, i) => s + i.tokens, 0);
  // Largest remainders first, so rounding never makes the parts disagree with the total.
  const order = exact.map((x, k) => [x - Math.floor(x), k] as const).sort((a, b) => b[0] - a[0]);
  for (const [, k] of order) {
    if (rest <= 0) break;
    out[k].tokens += 1;
    rest -= 1;
  }
  return out;
}

const SCALED_NOTE =
  "Split in the local estimate's proportions and scaled to the gateway's total: count_tokens only counts whole requests.";

function estimated(req: CountRequest, fallbackReason?: string): TokenCount {
  const est = estimateTokens(req.protocol, req.body);
  const out: TokenCount = { inputTokens: est.total, source: 'estimate', label: LABELS.estimate };
  if (fallbackReason) out.fallbackReason = fallbackReason;
  if (req.breakdown) out.breakdown = est.breakdown;
  return out;
}

function wantsGateway(req: CountRequest): boolean {
  const mode = req.useGateway ?? 'auto';
  if (mode === 'never') return false;
  if (mode === 'always' || req.protocol === 'messages') return true;
  return req.modelFamily === 'anthropic';
}

const SHOWING = ' — showing a local estimate';

/** Source fields that steer generation, not input: losing them in translation does not change the count. */
const GENERATION_CONTROLS = new Set([
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'stop_sequences',
  'stream',
  'stream_options',
  'seed',
  'n',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'metadata',
  'user',
  'safety_identifier',
  'store',
  'service_tier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'background',
  'include',
  'truncation',
  'verbosity',
]);

function affectsCount(loss: Loss): boolean {
  const top = /^[^.[]*/.exec(loss.path)?.[0] ?? '';
  return !GENERATION_CONTROLS.has(top);
}

/**
 * Counts the input tokens of a request from the composer. Rejects only when `signal` is aborted (a newer edit
 * superseded this one); every gateway failure becomes an estimate with the reason.
 */
export async function countTokens(req: CountRequest, deps: CountDeps, signal?: AbortSignal): Promise<TokenCount> {
  signal?.throwIfAborted();
  if (!wantsGateway(req)) return estimated(req);

  let messagesBody = req.body;
  let losses: TokenCount['losses'];
  const viaTranslation = req.protocol !== 'messages';
  if (viaTranslation) {
    const t = translateRequest(req.protocol, 'messages', req.body);
    if (!t.ok) return estimated(req, `the request could not be translated for count_tokens (${t.reason})${SHOWING}`);
    messagesBody = t.body;
    losses = t.losses.filter(affectsCount);
  }

  let answer: Awaited<ReturnType<CountDeps['countViaGateway']>>;
  try {
    answer = await deps.countViaGateway(countTokensBody(messagesBody), signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    answer = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  signal?.throwIfAborted();

  if (!answer.ok) {
    const why =
      answer.status !== undefined
        ? `count_tokens answered ${answer.status}: ${answer.message}`
        : `count_tokens could not be reached: ${answer.message}`;
    return estimated(req, why + SHOWING);
  }
  const n = answer.inputTokens;
  if (!Number.isInteger(n) || n < 0)
    return estimated(req, `count_tokens answered an unusable count (${String(n)})${SHOWING}`);
  // A real count is never 0 for a request with content: gateways answering a stub do
  // (docs/protocols.md §7.9).
  if (n === 0 && estimateTokens(req.protocol, req.body).total > 0)
    return estimated(req, `gateway answered 0 (stub?)${SHOWING}`);

  const source: TokenCount['source'] = viaTranslation ? 'gateway-via-translation' : 'gateway';
  const out: TokenCount = { inputTokens: n, source, label: LABELS[source] };
  if (losses) out.losses = losses;
  if (req.breakdown) {
    out.breakdown = scaleBreakdown(estimateTokens(req.protocol, req.body).breakdown, n);
    out.breakdownNote = SCALED_NOTE;
  }
  return out;
}

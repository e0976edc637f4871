/**
 * What coding agents depend on beyond a single request (docs/agents.md), and the relays that break it.
 *
 * The upstream part is faithful: Responses returns `reasoning.encrypted_content` when `include` asks for it and
 * verifies it when a stateless (`store: false`) turn sends it back; a function_call_output must answer a
 * function_call of the same input; a Messages thinking block sent back must carry the signature it was issued
 * with. The relay part is what third-party relays do in front of it, one behaviour per `sim-relay-*` model.
 */
import { createHmac } from 'node:crypto';
import type { ProtocolId } from '../../../shared/protocols/types';
import { RequestError } from './conversation';
import { SIGNATURE, type Frame } from './render';
import { jsonText } from '../../../shared/json-text';

export type RelayId =
  | 'drops-include'
  | 'key-pool'
  | 'strips-signatures'
  | 'ignores-cache'
  | 'chat-text-tools'
  | 'refuses-system-turns'
  | 'function-tools-only'
  | 'cuts-stream-line';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Upstream organisations' secrets: the faithful upstream uses the first; a key-pooling relay rotates them. */
const UPSTREAM_SECRETS = ['sim-org-a', 'sim-org-b'];
const ENCRYPTED_PREFIX = 'gAAAAB';

function mac(secret: string, itemId: string): string {
  return createHmac('sha256', secret).update(itemId).digest('base64url').slice(0, 32);
}

function encryptedFor(secret: string, itemId: string): string {
  return ENCRYPTED_PREFIX + Buffer.from(JSON.stringify({ id: itemId, mac: mac(secret, itemId) })).toString('base64');
}

function verifies(secret: string, itemId: string, content: string): boolean {
  if (!content.startsWith(ENCRYPTED_PREFIX)) return false;
  try {
    const decoded = JSON.parse(Buffer.from(content.slice(ENCRYPTED_PREFIX.length), 'base64').toString('utf8')) as Json;
    return decoded.id === itemId && decoded.mac === mac(secret, itemId);
  } catch {
    return false;
  }
}

/** One request as the relay passes it on: the body the upstream sees, and what to do to the answer. */
export interface RelayedRequest {
  body: Json;
  /** The upstream organisation this request landed on (a key-pooling relay spreads them). */
  secret: string;
  /** A relay that breaks cache affinity gets a cache of its own per request, so nothing is ever read back. */
  freshCache: boolean;
  /** Rewrites the answer's frames (streamed) or body (not streamed) on its way back. */
  answer<T>(value: T): T;
}

/** Per-simulator state of the relays: the key pool's rotation. */
export interface Relays {
  relay(relay: RelayId | undefined, protocol: ProtocolId, body: Json): RelayedRequest;
}

export function createRelays(): Relays {
  let pooled = 0;
  return {
    relay(relay, protocol, original) {
      const body: Json = { ...original };
      let secret = UPSTREAM_SECRETS[0];
      if (relay === 'key-pool') {
        // Most requests land on the first organisation, every fourth on another: the failure is intermittent.
        secret = UPSTREAM_SECRETS[pooled++ % 4 === 3 ? 1 : 0];
      }
      if (relay === 'drops-include') delete body.include;
      if (relay === 'ignores-cache') stripCacheMarks(body);
      if (relay === 'chat-text-tools' && protocol === 'chat') flattenTools(body);
      if (relay === 'refuses-system-turns' && protocol === 'messages') refuseSystemTurns(body);
      if (relay === 'function-tools-only' && protocol === 'responses') refuseOtherTools(body);
      checkUpstream(protocol, body, secret);
      const include = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
      const rewrite = (v: unknown): unknown =>
        answerRewrite(v, { include, secret, stripSignatures: relay === 'strips-signatures' });
      return { body, secret, freshCache: relay === 'ignores-cache', answer: <T>(value: T) => rewrite(value) as T };
    },
  };
}

function stripCacheMarks(body: Json): void {
  delete body.prompt_cache_key;
  delete body.cache_control;
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObj(v)) return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = strip(x);
    return out;
  };
  for (const key of ['system', 'messages', 'tools', 'input']) if (body[key] !== undefined) body[key] = strip(body[key]);
}

/**
 * A relay that validates Messages requests against an older schema of its own: a `system` turn inside
 * `messages` (Claude Code's mid-conversation-system beta) is refused in the relay's words.
 */
function refuseSystemTurns(body: Json): void {
  if (!Array.isArray(body.messages)) return;
  const at = body.messages.findIndex((m) => isObj(m) && m.role !== 'user' && m.role !== 'assistant');
  if (at >= 0)
    throw new RequestError(400, 'invalid_request_error', `messages.${at}.role: Input should be 'user' or 'assistant'`);
}

/** A relay that translates only function tools on Responses and refuses the rest (namespace, web_search, custom). */
function refuseOtherTools(body: Json): void {
  if (!Array.isArray(body.tools)) return;
  const at = body.tools.findIndex((t) => !isObj(t) || t.type !== 'function');
  if (at >= 0) {
    const type = isObj(body.tools[at]) ? jsonText(body.tools[at].type) : typeof body.tools[at];
    throw new RequestError(
      400,
      'invalid_request_error',
      `tools.${at}.type: unsupported tool type '${type}'; this relay accepts only 'function' tools`,
      'unsupported_tool_type',
    );
  }
}

/** Relays that "support" tools by describing them in the prompt: the model answers in prose. */
function flattenTools(body: Json): void {
  if (!Array.isArray(body.tools)) return;
  const names = body.tools.map((t) => (isObj(t) && isObj(t.function) ? String(t.function.name) : '?')).join(', ');
  delete body.tools;
  delete body.tool_choice;
  delete body.parallel_tool_calls;
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  body.messages = [
    { role: 'system', content: `You can use these tools by describing the call in text: ${names}.` },
    ...messages,
  ];
}

/** The upstream's refusals for agent turns sent back wrongly (docs/protocols.md §1.5, §4.3). */
function checkUpstream(protocol: ProtocolId, body: Json, secret: string): void {
  // With previous_response_id the calls being answered live in the stored response, not in this input.
  const chained = typeof body.previous_response_id === 'string';
  if (protocol === 'responses' && Array.isArray(body.input))
    checkResponsesInput(body.input.filter(isObj), { stateless: body.store === false, chained, secret });
  if (protocol === 'messages' && Array.isArray(body.messages)) checkSignatures(body.messages);
}

function checkResponsesInput(items: Json[], o: { stateless: boolean; chained: boolean; secret: string }): void {
  const calls = new Set(items.filter((i) => i.type === 'function_call').map((i) => i.call_id));
  for (const [n, item] of items.entries()) {
    if (item.type === 'reasoning') {
      const id = jsonText(item.id);
      const content = item.encrypted_content;
      if (typeof content !== 'string' || !content) {
        if (o.stateless) {
          throw new RequestError(
            400,
            'invalid_request_error',
            `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. ` +
              'Try again with `store` set to true, or remove this item from your input.',
          );
        }
      } else if (!verifies(o.secret, id, content)) {
        throw new RequestError(
          400,
          'invalid_request_error',
          `The encrypted content for item ${id} could not be verified.`,
          'invalid_encrypted_content',
        );
      }
    }
    if (item.type === 'function_call_output' && !o.chained && !calls.has(item.call_id)) {
      throw new RequestError(
        400,
        'invalid_request_error',
        `No tool call found for function call output with call_id ${String(item.call_id)}.`,
        `input[${n}]`,
      );
    }
  }
}

function checkSignatures(messages: unknown[]): void {
  messages.forEach((m, i) => {
    if (!isObj(m) || m.role !== 'assistant' || !Array.isArray(m.content)) return;
    m.content.forEach((block, j) => {
      if (!isObj(block) || block.type !== 'thinking') return;
      if (typeof block.signature !== 'string' || !block.signature) {
        throw new RequestError(
          400,
          'invalid_request_error',
          `messages.${i}.content.${j}.thinking.signature: Field required`,
        );
      }
      if (block.signature !== SIGNATURE) {
        throw new RequestError(
          400,
          'invalid_request_error',
          `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`,
        );
      }
    });
  });
}

interface RewriteOpts {
  include: boolean;
  secret: string;
  stripSignatures: boolean;
}

/** Walks an answer (frames or a body): adds encrypted reasoning where asked for, strips signatures for that relay. */
function answerRewrite(value: unknown, opts: RewriteOpts): unknown {
  if (Array.isArray(value)) return value.map((v) => answerRewrite(v, opts));
  if (!isObj(value)) return value;
  if (opts.stripSignatures && value.type === 'signature_delta') return { ...value, signature: '' };
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = answerRewrite(v, opts);
  if (out.type === 'reasoning' && typeof out.id === 'string' && opts.include)
    out.encrypted_content = encryptedFor(opts.secret, out.id);
  if (opts.stripSignatures && out.type === 'thinking' && 'signature' in out) out.signature = '';
  return out;
}

/** Frames keep their pacing flags; only their payloads are rewritten. */
export function relayFrames(frames: Frame[], relayed: RelayedRequest): Frame[] {
  return frames.map((f) => (typeof f.data === 'object' ? { ...f, data: relayed.answer(f.data) } : f));
}

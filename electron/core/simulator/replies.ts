/**
 * What every route of the simulated gateway answers with: each family's request id, rate-limit headers and
 * error envelope, the key a request carries, and the words of a plain reply.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { SimModel } from './catalogue';

/** What the replies read of the simulator's state: the request counter the ids are made from. */
export interface Counter {
  counter: number;
}

export type Family = 'anthropic' | 'openai';

/**
 * Whose conventions (error envelope, request-id header, /v1/models shape) an answer follows. /v1/messages* is
 * always the first family's; /v1/models serves both, and like new-api (docs/protocols.md §5) the simulator gives
 * the first family's shape only to a caller that sends both `x-api-key` and `anthropic-version`.
 */
export function familyOf(path: string, headers: IncomingMessage['headers']): Family {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return path === '/v1/models' && headers['anthropic-version'] && headers['x-api-key'] ? 'anthropic' : 'openai';
}

export function requestId(state: Counter, fam: Family): string {
  return `${fam === 'anthropic' ? 'req_sim' : 'req-sim-'}${createHash('md5').update(`${state.counter}`).digest('hex').slice(0, 20)}`;
}

export function baseHeaders(state: Counter, fam: Family): Record<string, string> {
  const id = requestId(state, fam);
  return fam === 'anthropic'
    ? {
        'request-id': id,
        'anthropic-ratelimit-requests-limit': '1000',
        'anthropic-ratelimit-requests-remaining': '999',
        'anthropic-ratelimit-requests-reset': new Date(Date.now() + 60_000).toISOString(),
      }
    : {
        'x-request-id': id,
        'openai-processing-ms': '12',
        'x-ratelimit-limit-requests': '1000',
        'x-ratelimit-remaining-requests': '999',
        'x-ratelimit-reset-requests': '60ms',
      };
}

export function sendError(
  res: ServerResponse,
  state: Counter,
  fam: Family,
  status: number,
  type: string,
  message: string,
  code?: string,
  extra: Record<string, string> = {},
): void {
  const headers: Record<string, string> = { ...baseHeaders(state, fam), 'content-type': 'application/json', ...extra };
  const body =
    fam === 'anthropic'
      ? { type: 'error', error: { type, message }, request_id: headers['request-id'] }
      : { error: { message, type, param: null, code: code ?? null } };
  res.writeHead(status, headers).end(JSON.stringify(body));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export type AuthHeader = 'x-api-key' | 'authorization';

const BOTH_AUTH: AuthHeader[] = ['x-api-key', 'authorization'];

export function keyOf(req: IncomingMessage, from = BOTH_AUTH): string | undefined {
  const x = req.headers['x-api-key'];
  if (from.includes('x-api-key') && typeof x === 'string' && x) return x;
  if (!from.includes('authorization')) return undefined;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

// ---- the words of a plain reply ----

function hashInt(s: string): number {
  return createHash('md5').update(s).digest().readUInt32BE(0);
}

const OPENERS = ['Sure', 'Certainly', 'Here goes', 'Happy to help', 'Good question'];
const TOPICS = [
  ['streams', 'events', 'arrive', 'one', 'at', 'a', 'time'],
  ['gateways', 'relay', 'each', 'request', 'to', 'an', 'upstream'],
  ['tokens', 'are', 'counted', 'before', 'and', 'after', 'sending'],
  ['protocols', 'differ', 'in', 'how', 'they', 'end', 'a', 'stream'],
];

const CODE = [
  [
    '```python',
    'import json',
    '',
    'def events(lines):',
    '    """Yield the JSON of each `data:` line of a stream."""',
    '    for line in lines:',
    '        if line.startswith("data: ") and line != "data: [DONE]":',
    '            yield json.loads(line[6:])',
    '```',
  ].join('\n'),
  [
    '```typescript',
    'async function* events(body: ReadableStream<Uint8Array>) {',
    '  const lines = body.pipeThrough(new TextDecoderStream());',
    '  for await (const chunk of lines) {',
    "    for (const line of chunk.split('\\n')) {",
    "      if (line.startsWith('data: ')) yield JSON.parse(line.slice(6));",
    '    }',
    '  }',
    '}',
    '```',
  ].join('\n'),
];

const TABLE = [
  '| Protocol | Endpoint | Last event |',
  '| --- | --- | --- |',
  '| Messages | `/v1/messages` | `message_stop` |',
  '| Chat Completions | `/v1/chat/completions` | `data: [DONE]` |',
  '| Responses | `/v1/responses` | `response.completed` |',
].join('\n');

/**
 * A prompt that asks for code or a table gets one, so the Demo gateway shows highlighting and tables too
 * (whole words of the user's last turn, so instructions and system prompts never change a reply).
 */
function extras(lastUser: string, h: number): string {
  let out = '';
  if (/\b(code|snippet)\b/i.test(lastUser)) out += `\n\nA small example:\n\n${CODE[h % CODE.length]}`;
  if (/\btables?\b/i.test(lastUser)) out += `\n\nHow each protocol ends a stream:\n\n${TABLE}`;
  return out;
}

/** A plain reply: the same request always gets the same words. */
export function replyText(model: SimModel, lastUser: string): string {
  const h = hashInt(`${model.id}|${lastUser}`);
  const topic = TOPICS[h % TOPICS.length];
  const quote = lastUser.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  const intro = `${OPENERS[h % OPENERS.length]} — this is **${model.displayName}** answering "${quote}".`;
  const body = `In short, ${topic.join(' ')}. A deterministic simulator wrote this, so the same request always gets the same words.`;
  const list = `\n\n- first point from ${model.id}\n- second point: ${topic.slice(0, 3).join(' ')}\n\nThat is all.`;
  return `${intro} ${body}${extras(lastUser, h)}${list}`;
}

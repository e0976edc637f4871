/**
 * What every route of the simulated gateway answers with: each family's request id, rate-limit headers and
 * error envelope, and the key a request carries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';

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

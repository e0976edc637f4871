/**
 * A relay the app has never seen (docs/agents.md "Proof against the real CLIs"): a small loopback proxy in
 * front of the Demo gateway, written here and not with the simulator's relay code, that breaks things in its
 * own way and in its own words. The real-CLI test runs the real agents and the app's Check through it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type UnseenMode = 'system-422' | 'tools-only' | 'cut-line' | 'pool';
export const UNSEEN_MODES: readonly UnseenMode[] = ['system-422', 'tools-only', 'cut-line', 'pool'];

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export interface UnseenRelay {
  url: string;
  /** Turns (POSTs) it received, and how many it failed on purpose. */
  turns: number;
  failed: number;
  close(): Promise<void>;
}

/** Why this relay refuses the request, in its own shape; undefined to pass it on. */
function refusal(mode: UnseenMode, path: string, body: Json): { status: number; body: unknown } | undefined {
  if (mode === 'system-422' && path.startsWith('/v1/messages') && Array.isArray(body.messages)) {
    const at = body.messages.findIndex((m) => isObj(m) && m.role === 'system');
    if (at >= 0)
      return {
        status: 422,
        body: { detail: [{ loc: ['body', 'messages', at], msg: 'system turns are not allowed here', kind: 'denied' }] },
      };
  }
  if (mode === 'tools-only' && path.startsWith('/v1/responses') && Array.isArray(body.tools)) {
    const odd: unknown = (body.tools as unknown[]).find((t) => !isObj(t) || t.type !== 'function');
    if (odd !== undefined)
      return {
        status: 400,
        body: { ok: false, problem: `cannot translate a ${isObj(odd) ? String(odd.type) : 'strange'} tool` },
      };
  }
  return undefined;
}

/** The first data line carrying a delta, cut after a few characters of its JSON (not in half, as the simulator does). */
function cutOneLine(): { edit(chunk: string): string; flush(): string } {
  let cut = false;
  let rest = '';
  const edit = (chunk: string) => {
    const text = rest + chunk;
    rest = '';
    if (cut) return text;
    const end = text.lastIndexOf('\n') + 1;
    rest = text.slice(end);
    return text
      .slice(0, end)
      .split('\n')
      .map((line) => {
        if (cut || !line.startsWith('data: {') || !line.includes('delta')) return line;
        cut = true;
        return line.slice(0, 'data: {"ty'.length);
      })
      .join('\n');
  };
  return { edit, flush: () => edit('\n').slice(0, -1) };
}

/**
 * One relay in front of `upstream`: `system-422` refuses Messages `system` turns with a 422 of its own,
 * `tools-only` refuses non-function Responses tools with a 400 of its own shape, `cut-line` cuts the first
 * delta line of every stream short, `pool` rotates three pooled upstream keys of which one is spent: every
 * third turn fails, with a 429 and a 502 in turn.
 */
export async function startUnseenRelay(mode: UnseenMode, upstream: string): Promise<UnseenRelay> {
  let pooled = 0;
  const relay: UnseenRelay = { url: '', turns: 0, failed: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      if (req.method === 'POST') {
        relay.turns++;
        let body: Json = {};
        try {
          const parsed: unknown = JSON.parse(raw);
          if (isObj(parsed)) body = parsed;
        } catch {
          // passed on as it came
        }
        const refused = refusal(mode, path, body);
        const spent = mode === 'pool' && pooled++ % 3 === 2;
        if (refused || spent) {
          relay.failed++;
          const r = refused ?? {
            status: pooled % 2 ? 429 : 502,
            body: { message: 'pooled key exhausted, try again', pool: 'key-3' },
          };
          res.writeHead(r.status, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify(r.body));
        }
      }
      const headers = { ...req.headers, host: new URL(upstream).host };
      delete headers['accept-encoding'];
      const up = http.request(new URL(path, upstream), { method: req.method, headers }, (answer) => {
        const out = { ...answer.headers };
        const cut = mode === 'cut-line' && String(answer.headers['content-type']).includes('event-stream');
        if (cut) delete out['content-length'];
        res.writeHead(answer.statusCode ?? 502, out);
        if (!cut) return void answer.pipe(res);
        const line = cutOneLine();
        answer.on('data', (c: Buffer) => res.write(line.edit(c.toString('utf8'))));
        answer.on('end', () => res.end(line.flush()));
      });
      up.on('error', () => res.destroy());
      up.end(raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return relay;
}

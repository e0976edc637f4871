/** GET /v1/models on the simulated gateway, in the shape of the caller's family (docs/protocols.md §5). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIM_MODELS } from './catalogue';
import { baseHeaders, familyOf, sendError, type Counter } from './replies';

/** The first family's `limit`: an integer 1–1000, default 20 (docs/protocols.md §5); anything else is a 400 upstream. */
function pageLimit(raw: string | null): number | string {
  if (raw === null) return 20;
  if (!/^-?\d+$/.test(raw.trim()))
    return 'limit: Input should be a valid integer, unable to parse string as an integer';
  const n = Number(raw);
  if (n < 1) return 'limit: Input should be greater than or equal to 1';
  if (n > 1000) return 'limit: Input should be less than or equal to 1000';
  return n;
}

export function modelsList(
  req: IncomingMessage,
  res: ServerResponse,
  state: Counter,
  allowed: string[],
  url: URL,
): void {
  const models = SIM_MODELS.filter((m) => allowed.includes(m.id));
  const fam = familyOf('/v1/models', req.headers);
  const headers = { ...baseHeaders(state, fam), 'content-type': 'application/json' };
  if (fam === 'openai') {
    res.writeHead(200, headers).end(
      JSON.stringify({
        object: 'list',
        data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy })),
      }),
    );
    return;
  }
  // The first family's cursor pages: after_id = the page right after that model, before_id = the page right
  // before it. A cursor that names no listed model is refused rather than silently restarting at page 1,
  // which would send a paging client round in circles.
  const limit = pageLimit(url.searchParams.get('limit'));
  if (typeof limit === 'string') return sendError(res, state, fam, 400, 'invalid_request_error', limit);
  const after = url.searchParams.get('after_id');
  const before = url.searchParams.get('before_id');
  if (after !== null && before !== null)
    return sendError(res, state, fam, 400, 'invalid_request_error', 'Only one of after_id and before_id may be given.');
  const cursor = after ?? before;
  const at = cursor === null ? -1 : models.findIndex((m) => m.id === cursor);
  if (cursor !== null && at < 0)
    return sendError(
      res,
      state,
      fam,
      400,
      'invalid_request_error',
      `${after !== null ? 'after_id' : 'before_id'}: no model with id '${cursor}' in this list.`,
    );
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (before !== null) {
    end = at;
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  } else {
    start = at + 1;
    end = Math.min(models.length, start + limit);
    hasMore = end < models.length;
  }
  const page = models.slice(start, end);
  res.writeHead(200, headers).end(
    JSON.stringify({
      data: page.map((m) => ({
        type: 'model',
        id: m.id,
        display_name: m.displayName,
        created_at: new Date(m.created * 1000).toISOString(),
      })),
      has_more: hasMore,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    }),
  );
}

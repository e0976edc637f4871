/**
 * A kept-alive connection the gateway closed while it sat idle in the pool: the next request on it fails before
 * any byte of an answer ("other side closed", ECONNRESET), the close and the request having crossed on the wire.
 * Browsers send such a request again on a new connection, whatever its method (Chromium's HttpNetworkTransaction);
 * so does the core, at most twice, and only when no connection was opened while the request ran: a gateway that
 * resets a fresh connection is shown as it is (docs/architecture.md §5).
 */
import type { Dispatcher } from 'undici';

const connections = new WeakMap<Dispatcher, { opened: number }>();

/** Connections `dispatcher` has opened since the first request through here: one listener per dispatcher. */
function openedBy(dispatcher: Dispatcher): { opened: number } {
  let count = connections.get(dispatcher);
  if (count === undefined) {
    const fresh = { opened: 0 };
    dispatcher.on('connect', () => fresh.opened++);
    connections.set(dispatcher, fresh);
    count = fresh;
  }
  return count;
}

const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function closedUnderneath(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CLOSED_CODES.has(code)) return true;
  }
  return false;
}

/** Sends with `send`; again (twice at most) when a kept-alive connection turned out closed before the head. */
export async function sendOverKeptAlive<T>(
  dispatcher: Dispatcher,
  signal: { readonly aborted: boolean },
  send: () => Promise<T>,
): Promise<T> {
  const count = openedBy(dispatcher);
  for (let attempt = 0; ; attempt++) {
    const opened = count.opened;
    try {
      return await send();
    } catch (err) {
      if (attempt >= 2 || signal.aborted || count.opened !== opened || !closedUnderneath(err)) throw err;
    }
  }
}

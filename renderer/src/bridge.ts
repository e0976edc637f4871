/**
 * The only reader of window.gateway (Electron preload) and the only WebSocket client (browser host).
 * Everything else in the renderer imports `gateway` from here.
 */
import {
  createGatewayApi,
  MAX_FRAME_BYTES,
  tooLarge,
  type CallName,
  type GatewayApi,
  type PushName,
  type Result,
  type Transport,
} from '../../shared/contract';
import { STALE_LINK_MESSAGE } from './stale-link';

declare global {
  interface Window {
    gateway?: GatewayApi;
  }
}

type Pending = (result: Result<unknown>) => void;

/** A call made while no socket is open: sent when one opens, or failed when `timer` fires first. */
interface Queued {
  name: CallName;
  input: unknown;
  resolve: Pending;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * How long a call made while the host is unreachable waits for a socket to open (across reconnect attempts)
 * before it fails with `disconnected`: long enough to ride out a host restart, short enough that the UI
 * can say something instead of waiting forever.
 */
export const QUEUE_TIMEOUT_MS = 10_000;

const disconnected = (message: string): Result<unknown> => ({ ok: false, error: { code: 'disconnected', message } });

export { STALE_LINK_MESSAGE };

/**
 * Browser host: one WebSocket, calls matched by id, pushes fanned out by name; reconnects after a drop.
 * A call is written only to a socket that is open: otherwise it waits in `queue` for the next socket that
 * opens, or fails with `disconnected` after QUEUE_TIMEOUT_MS. Calls already sent when a socket drops fail
 * with `disconnected` (the host may or may not have run them, so they are not sent again).
 */
function webSocketTransport(): Transport & {
  onConnection(cb: (up: boolean) => void): () => void;
  onStale(cb: () => void): () => void;
} {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const queue = new Map<number, Queued>();
  const listeners = new Map<PushName, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(up: boolean) => void>();
  const staleListeners = new Set<() => void>();
  // Set once the host refuses this window's token: no retry can succeed, every call fails at once.
  let stale = false;
  let nextId = 1;
  let socket: WebSocket;
  // Set and cleared by the current socket's open and close events: calls are written only in between.
  let open = false;
  let retryMs = 250;

  const send = (id: number, name: CallName, input: unknown, resolve: Pending) => {
    const text = JSON.stringify({ id, name, input });
    const bytes = text.length * 3 <= MAX_FRAME_BYTES ? text.length : new TextEncoder().encode(text).length;
    if (bytes > MAX_FRAME_BYTES) {
      // The host would close the socket on such a frame, cancelling every run of this tab.
      resolve(tooLarge(bytes));
      return;
    }
    pending.set(id, resolve);
    socket.send(text);
  };

  const connect = () => {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      open = true;
      retryMs = 250;
      for (const [id, q] of queue) {
        clearTimeout(q.timer);
        send(id, q.name, q.input, q.resolve);
      }
      queue.clear();
      connectionListeners.forEach((cb) => cb(true));
    });
    socket.addEventListener('message', (ev) => {
      let msg: { id?: number; result?: Result<unknown>; push?: PushName; payload?: unknown };
      try {
        msg = JSON.parse(String(ev.data)) as typeof msg;
      } catch {
        return;
      }
      if (msg.push) listeners.get(msg.push)?.forEach((cb) => cb(msg.payload));
      else if (msg.id !== undefined && msg.result) {
        pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      }
    });
    socket.addEventListener('close', () => {
      open = false;
      connectionListeners.forEach((cb) => cb(false));
      for (const [id, resolve] of pending) {
        resolve(disconnected('The connection to the app host was lost.'));
        pending.delete(id);
      }
      void tokenRefused().then((refused) => {
        if (refused) return becomeStale();
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      });
    });
  };
  /**
   * A browser does not tell a page why a WebSocket upgrade failed, so the page itself is asked for with the same
   * token: 401 means a host is there and this token is not its own; no answer means the host is down (retry).
   */
  const tokenRefused = async (): Promise<boolean> => {
    try {
      const r = await fetch(`/?token=${encodeURIComponent(token)}`, { method: 'HEAD', cache: 'no-store' });
      return r.status === 401;
    } catch {
      return false;
    }
  };
  const becomeStale = () => {
    stale = true;
    for (const [id, q] of queue) {
      clearTimeout(q.timer);
      q.resolve(disconnected(STALE_LINK_MESSAGE));
      queue.delete(id);
    }
    staleListeners.forEach((cb) => cb());
  };
  connect();

  return {
    invoke(name: CallName, input: unknown) {
      const id = nextId++;
      return new Promise<Result<unknown>>((resolve) => {
        if (stale) return resolve(disconnected(STALE_LINK_MESSAGE));
        if (open) return send(id, name, input, resolve);
        const timer = setTimeout(() => {
          queue.delete(id);
          resolve(disconnected('The app host cannot be reached.'));
        }, QUEUE_TIMEOUT_MS);
        queue.set(id, { name, input, resolve, timer });
      });
    },
    subscribe(name: PushName, listener: (payload: unknown) => void) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    onConnection(cb) {
      connectionListeners.add(cb);
      return () => connectionListeners.delete(cb);
    },
    onStale(cb) {
      staleListeners.add(cb);
      if (stale) cb();
      return () => staleListeners.delete(cb);
    },
  };
}

const web = typeof window !== 'undefined' && !window.gateway ? webSocketTransport() : undefined;

export const gateway: GatewayApi = (typeof window !== 'undefined' && window.gateway) || createGatewayApi(web!);

/** Browser host only: tells when the WebSocket to the host drops or comes back. */
export const onHostConnection = (cb: (up: boolean) => void): (() => void) => web?.onConnection(cb) ?? (() => {});

/** Browser host only: the host refused this window's token (it was started again); see STALE_LINK_MESSAGE. */
export const onHostStale = (cb: () => void): (() => void) => web?.onStale(cb) ?? (() => {});

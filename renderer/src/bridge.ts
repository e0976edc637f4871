/**
 * The only reader of window.gateway (Electron preload) and the only WebSocket client (browser host).
 * Everything else in the renderer imports `gateway` from here.
 */
import { createGatewayApi, type CallName, type GatewayApi, type PushName, type Result, type Transport } from '../../shared/contract';

declare global {
  interface Window {
    gateway?: GatewayApi;
  }
}

type Pending = (result: Result<unknown>) => void;

/** Browser host: one WebSocket, calls matched by id, pushes fanned out by name; reconnects after a drop. */
function webSocketTransport(): Transport & { onConnection(cb: (up: boolean) => void): () => void } {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<PushName, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(up: boolean) => void>();
  let nextId = 1;
  let socket: WebSocket;
  let ready: Promise<void>;
  let retryMs = 250;

  const connect = () => {
    socket = new WebSocket(url);
    ready = new Promise((resolve) => {
      socket.addEventListener('open', () => {
        retryMs = 250;
        connectionListeners.forEach((cb) => cb(true));
        resolve();
      });
    });
    socket.addEventListener('message', (ev) => {
      let msg: { id?: number; result?: Result<unknown>; push?: PushName; payload?: unknown };
      try {
        msg = JSON.parse(String(ev.data));
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
      connectionListeners.forEach((cb) => cb(false));
      for (const [id, resolve] of pending) {
        resolve({ ok: false, error: { code: 'disconnected', message: 'The connection to the app host was lost.' } });
        pending.delete(id);
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    });
  };
  connect();

  return {
    async invoke(name: CallName, input: unknown) {
      await ready;
      const id = nextId++;
      return new Promise<Result<unknown>>((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, name, input }));
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
  };
}

const web = typeof window !== 'undefined' && !window.gateway ? webSocketTransport() : undefined;

export const gateway: GatewayApi = (typeof window !== 'undefined' && window.gateway) || createGatewayApi(web!);

/** Browser host only: tells when the WebSocket to the host drops or comes back. */
export const onHostConnection = (cb: (up: boolean) => void): (() => void) => web?.onConnection(cb) ?? (() => {});

/** Unwraps a Result, throwing an Error whose message is the AppError's (for call sites that prefer try/catch). */
export async function unwrap<T>(p: Promise<Result<T>>): Promise<T> {
  const r = await p;
  if (!r.ok) throw Object.assign(new Error(r.error.message), { appError: r.error });
  return r.value;
}

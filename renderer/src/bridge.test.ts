import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A WebSocket the test drives by hand. `send` behaves like a browser's: it throws while connecting and
 * silently discards after close — so a call written to a closed socket is recorded in `lost`.
 */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: { id: number; name: string }[] = [];
  lost: string[] = [];
  private listeners: Record<string, ((e: { data?: string }) => void)[]> = {};
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  addEventListener(type: string, cb: (e: { data?: string }) => void) {
    (this.listeners[type] ??= []).push(cb);
  }
  private emit(type: string, e: { data?: string } = {}) {
    this.listeners[type]?.forEach((cb) => cb(e));
  }
  send(text: string) {
    if (this.readyState === 0) throw new Error('InvalidStateError: still connecting');
    if (this.readyState !== 1) return void this.lost.push(text);
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = 1;
    this.emit('open');
  }
  drop() {
    this.readyState = 3;
    this.emit('close');
  }
  /** Answers every call sent so far with its own name. */
  replyAll() {
    for (const m of this.sent.splice(0))
      this.emit('message', { data: JSON.stringify({ id: m.id, result: { ok: true, value: m.name } }) });
  }
}

const socket = (n: number) => FakeSocket.all[n];

/**
 * The real bridge module, fresh for each test, over FakeSocket. `pageStatus`: what the host answers when the
 * bridge asks for the page with its token (undefined: no host answers at all).
 */
async function freshBridge(pageStatus?: number) {
  vi.resetModules();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (pageStatus === undefined) throw new TypeError('fetch failed');
      return new Response(null, { status: pageStatus });
    }),
  );
  return import('./bridge');
}

/** What a promise has settled to so far (after letting microtasks run), or 'pending'. */
async function state<T>(p: Promise<T>): Promise<T | 'pending'> {
  let out: T | 'pending' = 'pending';
  void p.then((v) => (out = v));
  await vi.advanceTimersByTimeAsync(0);
  return out;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('browser-host bridge: a call too large for the host', () => {
  it('is refused in the tab with too_large, never sent (the host would close the socket and cancel its runs), and the connection goes on', async () => {
    const { gateway } = await freshBridge();
    socket(0).open();
    const big = gateway.runs.start({
      profileId: 'demo',
      protocol: 'messages',
      body: { blob: '漢'.repeat(12 * 1024 * 1024) },
    });
    expect(await state(big)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(socket(0).sent).toEqual([]);
    const next = gateway.app.info({});
    socket(0).replyAll();
    expect(await state(next)).toEqual({ ok: true, value: 'app:info' });
  });
});

describe('browser-host bridge: calls made while the host is unreachable', () => {
  it('a call made at start-up, when the first connection fails, is sent once a retry connects and gets its answer', async () => {
    const { gateway } = await freshBridge();
    const call = gateway.profiles.list({});
    socket(0).drop();
    await vi.advanceTimersByTimeAsync(250);
    socket(1).open();
    await vi.advanceTimersByTimeAsync(0);
    socket(1).replyAll();
    expect(await state(call)).toEqual({ ok: true, value: 'profiles:list' });
    expect(socket(0).lost).toEqual([]);
  });

  it('a call made between a drop and the next attempt is not written to the closed socket but sent on the next one', async () => {
    const { gateway } = await freshBridge();
    socket(0).open();
    socket(0).drop();
    const call = gateway.app.info({});
    await vi.advanceTimersByTimeAsync(250);
    expect(socket(0).lost).toEqual([]);
    socket(1).open();
    await vi.advanceTimersByTimeAsync(0);
    socket(1).replyAll();
    expect(await state(call)).toEqual({ ok: true, value: 'app:info' });
  });

  it('a call made during a retry that fails waits for the attempt after it', async () => {
    const { gateway } = await freshBridge();
    socket(0).open();
    socket(0).drop();
    await vi.advanceTimersByTimeAsync(250);
    const call = gateway.app.info({});
    socket(1).drop(); // the host is still down
    expect(await state(call)).toBe('pending');
    await vi.advanceTimersByTimeAsync(500);
    socket(2).open();
    await vi.advanceTimersByTimeAsync(0);
    socket(2).replyAll();
    expect(await state(call)).toEqual({ ok: true, value: 'app:info' });
  });

  it('a call made while the host stays down fails with `disconnected` instead of waiting forever', async () => {
    const { gateway, QUEUE_TIMEOUT_MS } = await freshBridge();
    const call = gateway.app.info({});
    for (let i = 0; i < 6; i++) {
      socket(i).drop();
      await vi.advanceTimersByTimeAsync(Math.min(250 * 2 ** i, 5000));
    }
    await vi.advanceTimersByTimeAsync(QUEUE_TIMEOUT_MS);
    const r = await state(call);
    expect(r).toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(FakeSocket.all.flatMap((s) => s.lost)).toEqual([]);
  });

  it('a call already sent when the socket drops still fails with `disconnected`', async () => {
    const { gateway } = await freshBridge();
    socket(0).open();
    const call = gateway.app.info({});
    await vi.advanceTimersByTimeAsync(0);
    expect(socket(0).sent).toHaveLength(1);
    socket(0).drop();
    expect(await state(call)).toMatchObject({
      ok: false,
      error: { code: 'disconnected', message: 'The connection to the app host was lost.' },
    });
  });
});

describe('browser-host bridge: a window from an earlier start of the host', () => {
  it('says the link is old and how to get the new one, stops retrying, and fails every call at once', async () => {
    const { gateway, onHostStale, STALE_LINK_MESSAGE } = await freshBridge(401);
    let told = false;
    onHostStale(() => (told = true));
    socket(0).open();
    socket(0).drop(); // the host restarted: same port, a new token
    const queued = gateway.app.info({});
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toBe(true);
    expect(STALE_LINK_MESSAGE).toMatch(/earlier start of Gateway Playground.*Open the address the host printed/);
    expect(await state(queued)).toEqual({ ok: false, error: { code: 'disconnected', message: STALE_LINK_MESSAGE } });
    expect(await state(gateway.profiles.list({}))).toMatchObject({ ok: false, error: { message: STALE_LINK_MESSAGE } });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('while the host is only down (the page does not answer, or answers 200), keeps retrying', async () => {
    for (const status of [undefined, 200]) {
      FakeSocket.all = [];
      const { onHostStale } = await freshBridge(status);
      let told = false;
      onHostStale(() => (told = true));
      socket(0).drop();
      await vi.advanceTimersByTimeAsync(250);
      expect(told).toBe(false);
      expect(FakeSocket.all).toHaveLength(2);
    }
  });
});

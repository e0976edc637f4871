import { describe, expect, it } from 'vitest';
import { CALL_NAMES, calls, createGatewayApi, ProfileInput, PUSH_NAMES, RunStartInput, type Transport } from './index';

describe('the contract', () => {
  it('names every call domain:verb and gives each an input schema', () => {
    expect(CALL_NAMES.length).toBeGreaterThan(8);
    for (const name of CALL_NAMES) {
      expect(name).toMatch(/^[a-z]+:[a-z]+$/);
      expect(typeof calls[name].input.safeParse).toBe('function');
    }
    for (const name of PUSH_NAMES) expect(name).toMatch(/^[a-z]+:[a-z]+$/);
  });

  it('builds one function per call bound to its own name, and nothing generic', async () => {
    const seen: [string, unknown][] = [];
    const transport: Transport = {
      invoke: async (name, input) => {
        seen.push([name, input]);
        return { ok: true, value: null };
      },
      subscribe: (name, listener) => {
        listener(name);
        return () => {};
      },
    };
    const api = createGatewayApi(transport) as unknown as Record<string, Record<string, (x?: unknown) => unknown>>;
    await api.profiles.list({});
    await api.runs.cancel({ runId: 'r' });
    expect(seen).toEqual([
      ['profiles:list', {}],
      ['runs:cancel', { runId: 'r' }],
    ]);
    expect(Object.keys(api).sort()).toEqual([...new Set(CALL_NAMES.map((n) => n.split(':')[0]))].concat('on').sort());
    expect('invoke' in api).toBe(false);
    let pushed: unknown;
    api.on.runsUpdate((p: unknown) => (pushed = p));
    expect(pushed).toBe('runs:update');
  });

  it('validates profiles: http(s) base URLs, header names, defaults', () => {
    expect(ProfileInput.safeParse({ name: 'a', baseUrl: 'https://x.example' }).data).toMatchObject({
      authScheme: 'native',
      extraHeaders: {},
      keyStorage: 'persist',
    });
    expect(ProfileInput.safeParse({ name: 'a', baseUrl: 'file:///etc/passwd' }).success).toBe(false);
    // Headers HTTP sets itself would make every request fail in the HTTP client: refused at save, by field.
    const transport = ProfileInput.safeParse({
      name: 'a',
      baseUrl: 'https://x.example',
      extraHeaders: { 'X-Team': 'blue', 'Transfer-Encoding': 'chunked' },
    });
    expect(transport.error?.issues).toEqual([
      expect.objectContaining({
        path: ['extraHeaders', 'Transfer-Encoding'],
        message: 'Transfer-Encoding is set by HTTP itself and cannot be sent as an extra header',
      }),
    ]);
    expect(
      ProfileInput.safeParse({ name: 'a', baseUrl: 'https://x', extraHeaders: { 'bad header': 'v' } }).success,
    ).toBe(false);
    expect(ProfileInput.safeParse({ name: 'a', baseUrl: 'https://x', sneaky: true }).success).toBe(false);
  });

  it('validates kept secret headers: listed among the headers with no new value, credential names only, no name twice', () => {
    const base = { name: 'a', baseUrl: 'https://x.example' };
    const issues = (input: Record<string, unknown>) =>
      ProfileInput.safeParse({ ...base, ...input }).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(
      issues({ extraHeaders: { 'helicone-auth': '' }, keepSecretHeaders: { 'helicone-auth': 'helicone-auth' } }),
    ).toBeUndefined();
    expect(issues({ extraHeaders: {}, keepSecretHeaders: { 'helicone-auth': 'helicone-auth' } })).toEqual([
      ['keepSecretHeaders.helicone-auth', expect.stringContaining('not among the extra headers')],
    ]);
    expect(
      issues({ extraHeaders: { 'helicone-auth': 'typed' }, keepSecretHeaders: { 'helicone-auth': 'helicone-auth' } }),
    ).toEqual([['extraHeaders.helicone-auth', expect.stringContaining('not both')]]);
    expect(issues({ extraHeaders: { 'x-relay': '' }, keepSecretHeaders: { 'x-relay': 'x-relay-token' } })).toEqual([
      ['extraHeaders.x-relay', expect.stringContaining('type the value')],
    ]);
    expect(issues({ extraHeaders: { 'X-Relay-Token': 'a', 'x-relay-token': 'b' } })).toEqual([
      ['extraHeaders.x-relay-token', expect.stringContaining('given twice')],
    ]);
  });

  it('keeps unknown body fields of a run as typed, and rejects unknown top-level keys', () => {
    const r = RunStartInput.safeParse({
      profileId: 'p',
      protocol: 'chat',
      body: { model: 'm', vendor_flag: { a: 1 } },
    });
    expect(r.success && r.data.body).toEqual({ model: 'm', vendor_flag: { a: 1 } });
    expect(r.success && r.data.warnings).toEqual([]);
    expect(RunStartInput.safeParse({ profileId: 'p', protocol: 'chat', body: {}, apiKey: 'sk' }).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { base64Runs, scrubberFor } from './scrubber';
import { scrub, scrubDeep, secretWatchingDecoder, urlSecrets } from './secrets';
import { safeResponseHeaders, secretsOfRequest, urlShown } from './http/request';

const KEY = 'sk-live/Ab+cd_0123456789';
const HEADER = 'pk-virtual-KEY-77aa99';

/** Every 8-character window of a secret: what must not survive anywhere. */
const windows = (s: string) => Array.from({ length: Math.max(1, s.length - 7) }, (_, i) => s.slice(i, i + 8));
const clean = (text: string, secret: string) => windows(secret).every((w) => !text.includes(w));

const jsonUnicode = (s: string, upper: boolean) =>
  [...s]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .map((e) => (upper ? e.toUpperCase().replace('\\U', '\\u') : e))
    .join('');

describe('scrub: every form a JSON or HTTP layer can give a secret', () => {
  const forms: [string, string][] = [
    ['as written', KEY],
    ['with JSON-escaped slashes', KEY.replaceAll('/', '\\/')],
    ['every character \\u-escaped, lower-case hex', jsonUnicode(KEY, false)],
    ['every character \\u-escaped, upper-case hex', jsonUnicode(KEY, true)],
    [
      'some characters \\u-escaped, mixed case',
      KEY.replace('-', '\\u002D').replace('A', '\\u0041').replace('c', '\\u0063'),
    ],
    ['URL-encoded, lower-case hex', encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['URL-encoded, upper-case hex', encodeURIComponent(KEY)],
    ['every character URL-encoded', [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join('')],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
    ['with one character URL-encoded twice', KEY.replace('/', '%252F')],
    ['as decimal HTML references', [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    [
      'as hex HTML references, either case',
      [...KEY].map((c, i) => `&#${i % 2 ? 'x' : 'X'}${c.charCodeAt(0).toString(16)};`).join(''),
    ],
    ['as HTML references padded with zeros, without ;', [...KEY].map((c) => `&#00${c.charCodeAt(0)}`).join('')],
    ['with one character an HTML reference', KEY.replace('-', '&#45;')],
    ['with / and + as named HTML references', KEY.replace('/', '&sol;').replace('+', '&plus;')],
    ['with a reference escaped once more', KEY.replace('/', '&amp;#47;')],
    [
      'in a mix of every escape',
      KEY.replace('s', '&#x73;').replace('/', '%252F').replace('+', '\\u002b').replace('_', '%5F'),
    ],
    ['in base64', Buffer.from(KEY).toString('base64')],
    ['in URL-safe base64', Buffer.from(KEY).toString('base64url')],
    ['in Basic credentials (base64 of user:key)', Buffer.from(`someone:${KEY}`).toString('base64')],
    ['in base64 of Bearer <key>, any alignment', Buffer.from(`Bearer  ${KEY}`).toString('base64')],
  ];
  for (const [name, form] of forms) {
    it(`removes the key ${name}`, () => {
      const text = `{"error":{"message":"bad key: ${form}, try again"}}`;
      const out = scrub(text, [KEY]);
      expect(out).toContain('[redacted]');
      expect(clean(out, KEY)).toBe(true);
      // What JSON parsing would make of it holds no key either.
      expect(clean(JSON.parse(out.replace(/\\(?!u[0-9a-fA-F]{4}|[/"\\])/g, '')).error.message, KEY)).toBe(true);
      expect(out.startsWith('{"error":{"message":"bad key: ')).toBe(true);
    });
  }

  it('turns a space into + or %20 as a form post does', () => {
    expect(scrub('v=my+secret+value&x=my%20secret%20value', ['my secret value'])).toBe('v=[redacted]&x=[redacted]');
  });

  it('matches a short secret only as a whole word, in every form', () => {
    expect(scrub('tenant=abc7; other=abc7def; q=%61bc7; j=\\u0061bc7', ['abc7'])).toBe(
      'tenant=[redacted]; other=abc7def; q=[redacted]; j=[redacted]',
    );
  });

  it('leaves text without a secret as it is, the same string', () => {
    const text = 'data: {"type":"content_block_delta","delta":{"text":"100% sure \\u00e9"}}';
    expect(scrub(text, [KEY, HEADER])).toBe(text);
  });

  it("base64 runs are the secret's own quanta at each of the three alignments", () => {
    const runs = base64Runs(KEY);
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:']) {
      const enc = Buffer.from(`${prefix}${KEY}!`).toString('base64');
      expect(runs.some((r) => enc.includes(r))).toBe(true);
    }
  });
});

describe('scrubDeep: the strings of a parsed value', () => {
  it('cleans values and keys at any depth and keeps what holds no secret', () => {
    const models = [
      { id: 'm1', display_name: `Model for ${KEY}`, meta: { [HEADER]: [1, `x${HEADER}`] } },
      { id: 'm2' },
    ];
    const out = scrubDeep(models, [KEY, HEADER]);
    expect(out[0].display_name).toBe('Model for [redacted]');
    expect(out[0].meta).toEqual({ '[redacted]': [1, 'x[redacted]'] });
    expect(out[1]).toBe(models[1]);
    expect(models[0].display_name).toContain(KEY);
  });
});

describe('urlSecrets: the credentials a URL carries', () => {
  it('lists user and password as written and decoded, and user:password', () => {
    expect(urlSecrets('http://proxy%20user:p%40ss-word-1@proxy.test:8080')).toEqual(
      expect.arrayContaining(['proxy%20user', 'proxy user', 'p%40ss-word-1', 'p@ss-word-1', 'proxy user:p@ss-word-1']),
    );
    expect(urlSecrets('https://gw.test/v1')).toEqual([]);
    expect(
      scrub(
        `Proxy said: ${Buffer.from('proxy user:p@ss-word-1').toString('base64')}`,
        urlSecrets('http://proxy%20user:p%40ss-word-1@p.test'),
      ),
    ).not.toContain(Buffer.from('proxy user:p@ss-word-1').toString('base64').slice(4, 20));
  });
});

describe('secretWatchingDecoder sees escaped forms', () => {
  const feed = (secret: string, parts: string[]) => {
    const d = secretWatchingDecoder([secret]);
    for (const p of parts) d.write(Buffer.from(p));
    return d.sawSecret;
  };
  it('in one chunk and split across chunks', () => {
    const escaped = KEY.replaceAll('/', '\\/').replace('-', '\\u002d');
    const text = `data: {"error":{"message":"${escaped}"}}\n\n`;
    expect(feed(KEY, [text])).toBe(true);
    for (let at = 1; at < text.length; at += 3) expect(feed(KEY, [text.slice(0, at), text.slice(at)])).toBe(true);
    expect(feed(KEY, [`data: {"q":"${encodeURIComponent(KEY)}"}\n\n`])).toBe(true);
    expect(feed(KEY, ['data: {"text":"no secret here \\u00e9 100%"}\n\n'])).toBe(false);
  });

  it('looks for a changed secret, though an earlier stream tuned the search for the old one', () => {
    // Longer than the tuning sample: the first stream's search is final and every later stream of its
    // secrets reuses it (a load run); a stream for another secret must get a search of its own.
    const filler = 'data: {"type":"content_block_delta","delta":{"text":"hello world"}}\n\n'.repeat(80);
    const first = 'sk-first-0123456789';
    const changed = 'sk-other-9876543210';
    const middle = (secret: string) => [`${filler}data: {"echo":"${secret}"}\n\n${filler}`];
    expect(feed(first, middle(first))).toBe(true);
    expect(feed(changed, middle(changed))).toBe(true);
    expect(feed(changed, middle(first))).toBe(false);
    expect(feed(first, middle(changed))).toBe(false);
    expect(feed(first, middle(first))).toBe(true);
  });

  it('builds one scrubber per distinct list', () => {
    expect(scrubberFor([KEY, HEADER])).toBe(scrubberFor([KEY, HEADER]));
  });
});

describe('what a request is scrubbed of: credentials in the gateway URL and the proxy', () => {
  it('adds the proxy URL and the gateway URL userinfo to the profile secrets, and the ledger URL shows neither', () => {
    const saved = process.env.https_proxy;
    process.env.https_proxy = 'http://proxyuser:proxy%2Fpass-1234@proxy.test:3128';
    try {
      const secrets = secretsOfRequest('https://gwuser:gw-pass-5678@gw.test/v1/messages', [KEY]);
      expect(secrets).toEqual(
        expect.arrayContaining([KEY, 'gwuser', 'gw-pass-5678', 'proxyuser', 'proxy/pass-1234', 'proxy%2Fpass-1234']),
      );
      const page = `407 for proxyuser:${encodeURIComponent('proxy/pass-1234')} (${Buffer.from('proxyuser:proxy/pass-1234').toString('base64')})`;
      const out = scrub(page, secrets);
      for (const s of [
        'proxy/pass-1234',
        'proxyuser',
        Buffer.from('proxyuser:proxy/pass-1234').toString('base64').slice(0, 12),
      ]) {
        expect(out).not.toContain(s);
      }
      expect(urlShown('https://gwuser:gw-pass-5678@gw.test/v1/messages')).toBe('https://gw.test/v1/messages');
    } finally {
      if (saved === undefined) delete process.env.https_proxy;
      else process.env.https_proxy = saved;
    }
  });
});

describe('response headers fit to leave the core', () => {
  it('scrub a secret echoed as a header name as well as in values', () => {
    // A secret with no credential word in it: a header named like a credential is redacted whole anyway.
    const secret = 'tenant-77aa99bb';
    const out = safeResponseHeaders({ [`x-echo-${secret}`]: '1', 'x-note': `got ${secret}` }, [secret], undefined);
    expect(out).toEqual({ 'x-echo-[redacted]': '1', 'x-note': 'got [redacted]' });
  });
});

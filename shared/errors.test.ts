import { describe, expect, it } from 'vitest';
import { bodyErrorOf, closeCutJson, describeNetworkError, parseGatewayError, RAW_BODY_CAP } from './errors';

const json = { 'content-type': 'application/json' };

describe('parseGatewayError: JSON envelopes', () => {
  it('Anthropic envelope with request-id header', () => {
    const body =
      '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"},"request_id":"req_011body"}';
    expect(parseGatewayError(400, { ...json, 'Request-Id': 'req_011hdr' }, body)).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'max_tokens: Field required',
      requestId: 'req_011hdr',
      rawBody: body,
      contentType: 'application/json',
    });
  });

  it('takes the request id from the body when no header has it', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_body"}';
    expect(parseGatewayError(529, json, body)).toMatchObject({ type: 'overloaded_error', requestId: 'req_body' });
  });

  it('OpenAI envelope with x-request-id and a null code', () => {
    const body =
      '{"error":{"message":"Incorrect API key provided: sk-…","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}';
    expect(parseGatewayError(401, { ...json, 'x-request-id': 'req_abc' }, body)).toMatchObject({
      status: 401,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      message: 'Incorrect API key provided: sk-…',
      requestId: 'req_abc',
    });
    const nullCode = parseGatewayError(
      500,
      json,
      '{"error":{"message":"oops","type":"server_error","param":null,"code":null}}',
    );
    expect(nullCode).not.toHaveProperty('code');
  });

  it('LiteLLM wrong-family envelope with "None" strings and a numeric-string code', () => {
    const body = '{"error":{"message":"litellm.BadRequestError: bad","type":"None","param":"None","code":"400"}}';
    expect(parseGatewayError(400, { 'x-litellm-call-id': 'call-1' }, body)).toMatchObject({
      type: 'error',
      code: '400',
      message: 'litellm.BadRequestError: bad',
      requestId: 'call-1',
    });
  });

  it('numeric code and string error', () => {
    expect(parseGatewayError(429, json, '{"error":{"message":"Rate limited","code":429}}')).toMatchObject({
      code: '429',
      message: 'Rate limited',
      type: 'error',
    });
    expect(
      parseGatewayError(403, { 'X-Oneapi-Request-Id': '2025abc' }, '{"error":"Forbidden: group has no access"}'),
    ).toMatchObject({
      type: 'error',
      message: 'Forbidden: group has no access',
      requestId: '2025abc',
    });
  });

  it('FastAPI detail (string and pydantic list)', () => {
    expect(parseGatewayError(400, json, '{"detail":"Unsupported parameter: max_output_tokens"}')).toMatchObject({
      type: 'gateway_error',
      message: 'Unsupported parameter: max_output_tokens',
    });
    const list = '{"detail":[{"loc":["body","model"],"msg":"field required","type":"value_error.missing"}]}';
    expect(parseGatewayError(422, json, list).message).toBe('body.model: field required');
  });
});

describe('parseGatewayError: non-JSON bodies', () => {
  it('HTML 502 page: gateway_error naming status, a tag-free extract and proxy headers', () => {
    const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
      <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center><script>var x=1;</script></body></html>`;
    const info = parseGatewayError(
      502,
      { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '8f1c2a3b4c5d-AMS' },
      html,
    );
    expect(info.type).toBe('gateway_error');
    expect(info.message).toBe(
      'HTTP 502 Bad Gateway with an HTML page: "502 Bad Gateway 502 Bad Gateway nginx/1.25.3" (server: cloudflare, cf-ray: 8f1c2a3b4c5d-AMS)',
    );
    expect(info.message).not.toMatch(/[<>]/);
    expect(info.rawBody).toBe(html);
    expect(info.contentType).toBe('text/html');
  });

  it('caps the extract at 200 characters and the raw body at 64 KiB', () => {
    const long = 'x'.repeat(RAW_BODY_CAP + 500);
    const info = parseGatewayError(500, { 'content-type': 'text/plain' }, long);
    expect(info.rawBody).toHaveLength(RAW_BODY_CAP);
    expect(info.message).toContain(`"${'x'.repeat(200)}…"`);
  });

  it('Cloudflare problem+json 524', () => {
    const body = JSON.stringify({
      type: 'https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/error-524/',
      title: 'Error 524: A timeout occurred',
      status: 524,
      detail: 'The origin web server timed out responding to this request.',
    });
    const info = parseGatewayError(524, { 'content-type': 'application/problem+json', 'cf-ray': 'abc-FRA' }, body);
    expect(info).toMatchObject({ status: 524, type: 'gateway_error', contentType: 'application/problem+json' });
    expect(info.message).toBe(
      'HTTP 524 A Timeout Occurred: Error 524: A timeout occurred: The origin web server timed out responding to this request. (cf-ray: abc-FRA)',
    );
  });

  it('plain text and empty bodies', () => {
    expect(parseGatewayError(503, {}, 'upstream connect error or disconnect/reset before headers').message).toBe(
      'HTTP 503 Service Unavailable with a non-JSON body: "upstream connect error or disconnect/reset before headers"',
    );
    expect(parseGatewayError(504, {}, '')).toMatchObject({
      type: 'gateway_error',
      message: 'HTTP 504 Gateway Timeout with an empty body',
    });
    expect(parseGatewayError(418, {}, '{not json')).toMatchObject({ type: 'gateway_error' });
  });
});

describe('parseGatewayError: retry-after', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1.5],
    [{ 'retry-after': '30' }, 30],
    [{ 'Retry-After': 'Thu, 01 Jan 2026 00:00:12 GMT' }, 12],
    [{ 'retry-after': new Date(now + 2_400).toUTCString() }, 2],
    [{ 'retry-after': 'soon' }, undefined],
  ])('%j → %s s', (headers, expected) => {
    expect(parseGatewayError(429, headers as Record<string, string>, '{}', { now }).retryAfter).toBe(expected);
  });

  it('rounds an HTTP date up to whole seconds', () => {
    const at = now + 500;
    expect(parseGatewayError(429, { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, '', { now: at }).retryAfter).toBe(
      3,
    );
  });
});

describe('parseGatewayError: redirects', () => {
  it('names where a relative Location points, from the request URL, and leaves an absolute one as sent', () => {
    const at = 'https://gw.example.com/api/v1/models';
    expect(parseGatewayError(307, { location: '/api/v1/models/' }, '', { requestUrl: at }).message).toMatch(
      /^The gateway redirected this request to \/api\/v1\/models\/ \(that is, https:\/\/gw\.example\.com\/api\/v1\/models\/\)\. /,
    );
    expect(parseGatewayError(302, { location: '//login.example.com/sso' }, '', { requestUrl: at }).message).toContain(
      'to //login.example.com/sso (that is, https://login.example.com/sso).',
    );
    const absolute = parseGatewayError(301, { location: 'https://new.example.com/v1/models' }, '', { requestUrl: at });
    expect(absolute).toMatchObject({ type: 'redirect', status: 301 });
    expect(absolute.message).toContain('to https://new.example.com/v1/models. ');
    expect(parseGatewayError(307, { location: 'models/' }, '').message).toContain('to models/. ');
  });
});

describe('bodyErrorOf', () => {
  it('detects error envelopes in 200 bodies and stream frames, not `error: null`', () => {
    expect(bodyErrorOf({ type: 'error', error: { type: 'api_error', message: 'x' } })).toEqual({
      type: 'api_error',
      message: 'x',
    });
    expect(bodyErrorOf({ error: { message: 'm', code: 'model_not_found' } })).toEqual({
      code: 'model_not_found',
      message: 'm',
    });
    expect(bodyErrorOf({ type: 'error', code: 'server_error', message: 'flat', sequence_number: 3 })).toEqual({
      code: 'server_error',
      message: 'flat',
    });
    expect(bodyErrorOf({ id: 'resp', status: 'completed', error: null })).toBeUndefined();
    expect(bodyErrorOf({ choices: [] })).toBeUndefined();
    expect(bodyErrorOf('error')).toBeUndefined();
  });
});

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}
function sysError(code: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

describe('parseGatewayError: a JSON body cut short', () => {
  it('keeps the envelope when its message arrived whole', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"';
    expect(parseGatewayError(529, { ...json, 'retry-after': '7' }, body)).toEqual({
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      retryAfter: 7,
      rawBody: body,
      contentType: 'application/json',
    });
    expect(parseGatewayError(401, json, '{"detail":"Invalid token"')).toMatchObject({
      type: 'gateway_error',
      message: 'Invalid token',
    });
  });

  it('keeps the type but not a message cut mid-word, and says the body was cut', () => {
    const cut = parseGatewayError(529, json, '{"type":"error","error":{"type":"overloaded_error","message":"Overl');
    expect(cut).toMatchObject({
      type: 'overloaded_error',
      message:
        'HTTP 529 Overloaded with a JSON body cut short: "{"type":"error","error":{"type":"overloaded_error","message":"Overl"',
    });
    expect(parseGatewayError(503, json, '{"error":{"message":"over')).toMatchObject({
      type: 'gateway_error',
      message: 'HTTP 503 Service Unavailable with a JSON body cut short: "{"error":{"message":"over"',
    });
  });

  it('closes only the start of valid JSON, after its last complete value', () => {
    expect(closeCutJson('{"a":[1,2,{"b":tr')).toEqual({ a: [1, 2, {}] });
    expect(closeCutJson('{"a":12')).toEqual({});
    expect(closeCutJson('{"a":12,"b"')).toEqual({ a: 12 });
    expect(closeCutJson('{"a":"x\\"y')).toEqual({});
    expect(closeCutJson('[')).toEqual([]);
    expect(closeCutJson('{"error":{"message":"x"}}garbage')).toBeUndefined();
    expect(closeCutJson('{"a" "b"}')).toBeUndefined();
    expect(closeCutJson('plain text')).toBeUndefined();
    // Malformed after a complete document is not "cut": it stays a non-JSON body.
    expect(parseGatewayError(500, json, '{"error":{"message":"x"}}garbage').type).toBe('gateway_error');
  });

  it('keeps a string value the cut fell inside as far as it came, for the keys asked, even through a split escape', () => {
    const keep = (t: string) => closeCutJson(t, { keepCutStrings: new Set(['text', 't', 'a']) });
    expect(keep('{"content":[{"type":"text","text":"Hello wor')).toEqual({
      content: [{ type: 'text', text: 'Hello wor' }],
    });
    expect(keep('{"t":"line\\nnext \\')).toEqual({ t: 'line\nnext ' });
    expect(keep('{"t":"caf\\u00e')).toEqual({ t: 'caf' });
    expect(keep('{"t":"caf\\u00e9 ok')).toEqual({ t: 'café ok' });
    expect(keep('{"a":"x","te')).toEqual({ a: 'x' });
    expect(keep('["one","tw')).toEqual(['one']);
    expect(closeCutJson('{"t":"Hello wor')).toEqual({});
    // Half an id or a stop reason is not kept: it would read as a whole one.
    expect(keep('{"id":"resp_12')).toEqual({});
    expect(keep('{"text":"done","stop_reason":"tool_u')).toEqual({ text: 'done' });
  });
});

describe('describeNetworkError', () => {
  it('a header undici refuses is named, and told apart: a bad character in a value, or a header HTTP sets itself', () => {
    const refused = (name: string) =>
      Object.assign(new Error(`invalid ${name} header`), { code: 'UND_ERR_INVALID_ARG', name: 'InvalidArgumentError' });
    expect(describeNetworkError(refused('authorization'))).toMatchObject({
      type: 'network:invalid-header',
      message: expect.stringMatching(
        /^The request was not sent: the authorization header holds a character HTTP headers cannot carry/,
      ),
    });
    expect(describeNetworkError(refused('Transfer-Encoding'))).toMatchObject({
      type: 'network:invalid-header',
      message:
        "The request was not sent: transfer-encoding is a header HTTP sets itself. Remove it from the profile's extra headers.",
    });
    const notSupported = Object.assign(new Error('expect header not supported'), {
      code: 'UND_ERR_NOT_SUPPORTED',
      name: 'NotSupportedError',
    });
    expect(describeNetworkError(notSupported)).toMatchObject({
      type: 'network:invalid-header',
      code: 'UND_ERR_NOT_SUPPORTED',
      message: expect.stringMatching(/^The request was not sent: expect is a header HTTP sets itself/),
    });
  });

  it('refused names the address', () => {
    const err = fetchFailed(
      sysError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1234', {
        address: '127.0.0.1',
        port: 1234,
        syscall: 'connect',
      }),
    );
    expect(describeNetworkError(err)).toEqual({
      type: 'network:refused',
      code: 'ECONNREFUSED',
      message: 'Connection refused by 127.0.0.1:1234 — is the gateway running?',
    });
  });

  it('refused inside an AggregateError (happy eyeballs)', () => {
    const agg = Object.assign(
      new AggregateError([
        sysError('ECONNREFUSED', 'connect ECONNREFUSED ::1:8080', { address: '::1', port: 8080 }),
        sysError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080', { address: '127.0.0.1', port: 8080 }),
      ]),
      { code: 'ECONNREFUSED' },
    );
    expect(describeNetworkError(fetchFailed(agg))).toMatchObject({
      type: 'network:refused',
      message: 'Connection refused by ::1:8080 — is the gateway running?',
    });
  });

  it.each([
    [
      sysError('ENOTFOUND', 'getaddrinfo ENOTFOUND gw.example.invalid', { hostname: 'gw.example.invalid' }),
      'network:dns',
      /gw\.example\.invalid/,
    ],
    [sysError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN gw.example'), 'network:dns', /EAI_AGAIN/],
    [
      sysError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
      'network:tls',
      /certificate/,
    ],
    [
      sysError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
      'network:tls',
      /altnames/,
    ],
    [
      sysError('EPROTO', 'write EPROTO SSL routines:ssl3_get_record:wrong version number'),
      'network:tls',
      /wrong version/,
    ],
    [sysError('ECONNRESET', 'read ECONNRESET'), 'network:reset', /reset/],
    [sysError('UND_ERR_SOCKET', 'other side closed'), 'network:reset', /other side closed/],
    [
      sysError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443', { address: '10.0.0.1', port: 443 }),
      'network:timeout',
      /10\.0\.0\.1:443/,
    ],
    [sysError('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), 'network:timeout', /Connect Timeout/],
  ])('%s → %s', (cause, type, message) => {
    const info = describeNetworkError(fetchFailed(cause));
    expect(info.type).toBe(type);
    expect(info.message).toMatch(message);
    expect(info.status).toBeUndefined();
  });

  it('other side closed without a code is a reset', () => {
    expect(describeNetworkError(fetchFailed(new Error('other side closed'))).type).toBe('network:reset');
  });

  it('anything else is unknown with its message', () => {
    expect(describeNetworkError(new Error('Something odd'))).toEqual({
      type: 'network:unknown',
      message: 'Something odd',
    });
    expect(describeNetworkError('plain string')).toEqual({ type: 'network:unknown', message: 'plain string' });
  });
});

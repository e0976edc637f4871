import { describe, expect, it } from 'vitest';
import { endpointInBase, endpointUrls, joinUrl, normalizeBaseUrl } from './url';

describe('base URL preview', () => {
  it('gives the same endpoint URLs with or without a trailing /v1, and says so', () => {
    const a = endpointUrls('https://gw.example.com');
    const b = endpointUrls('https://gw.example.com/v1/');
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.urls.map((u) => u.url)).toEqual(b.urls.map((u) => u.url));
    expect(a.urls.find((u) => u.path === '/v1/messages/count_tokens')?.url).toBe(
      'https://gw.example.com/v1/messages/count_tokens',
    );
    expect(a.note).toBeUndefined();
    expect(b.note).toMatch(/trailing \/v1/);
  });

  it('keeps a path prefix before /v1', () => {
    expect(joinUrl('http://127.0.0.1:8080/relay/v1', '/v1/models')).toBe('http://127.0.0.1:8080/relay/v1/models');
  });

  it('rejects what is not http(s) with a field message', () => {
    expect(normalizeBaseUrl('ftp://x')).toEqual({ ok: false, error: 'must be an http:// or https:// URL' });
    expect(normalizeBaseUrl('gw.example.com')).toMatchObject({ ok: false });
    expect(normalizeBaseUrl('https://user:pw@gw.example.com')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/API key/),
    });
  });
});

describe('a base URL that already names an endpoint', () => {
  it('finds /v1 twice or an endpoint path at the end, and says which base was meant', () => {
    expect(endpointInBase('https://gw.example/v1/v1')).toEqual({
      found: '/v1/v1',
      suggestion: 'https://gw.example/v1',
    });
    expect(endpointInBase('https://gw.example/v1/chat/completions')).toEqual({
      found: '/v1/chat/completions',
      suggestion: 'https://gw.example/v1',
    });
    expect(endpointInBase('https://gw.example/api/v1/messages/count_tokens/')).toEqual({
      found: '/v1/messages/count_tokens',
      suggestion: 'https://gw.example/api/v1',
    });
    expect(endpointInBase('https://gw.example/api/v1/responses')?.suggestion).toBe('https://gw.example/api/v1');
  });

  it('leaves a plain base, a base with one /v1 and a prefix alone', () => {
    for (const ok of ['https://gw.example', 'https://gw.example/v1', 'https://gw.example/openai/v1', 'not a url'])
      expect(endpointInBase(ok)).toBeUndefined();
  });
});

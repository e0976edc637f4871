import { describe, expect, it } from 'vitest';
import { SECRET_HEADER } from './request-headers';
import { exportCode } from './code-export';

describe('secret header names', () => {
  it('covers the credential headers gateways and proxies use, not the ordinary ones', () => {
    for (const name of ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'helicone-auth', 'ocp-apim-subscription-key', 'x-relay-token', 'cookie', 'x-amz-security-token', 'x-signature', 'x-session-id']) {
      expect(SECRET_HEADER.test(name), name).toBe(true);
    }
    for (const name of ['accept', 'content-type', 'anthropic-version', 'anthropic-beta', 'user-agent', 'x-team', 'openai-organization']) {
      expect(SECRET_HEADER.test(name), name).toBe(false);
    }
  });

  it('exported code masks such headers', () => {
    const code = exportCode('curl', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'bearer',
      extraHeaders: { 'helicone-auth': 'Bearer sk-helicone-SECRET', 'ocp-apim-subscription-key': 'apim-SECRET', 'x-team': 'blue' },
      protocol: 'chat',
      body: { model: 'm', messages: [] },
    });
    expect(code).not.toContain('sk-helicone-SECRET');
    expect(code).not.toContain('apim-SECRET');
    expect(code).toContain("-H 'helicone-auth: <SECRET>'");
    expect(code).toContain("-H 'x-team: blue'");
  });
});

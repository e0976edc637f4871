import { describe, expect, it } from 'vitest';
import { SECRET_HEADER } from './request-headers';
import { exportCode } from './code-export';

describe('secret header names', () => {
  it('covers the credential headers gateways and proxies use, not the ordinary ones', () => {
    for (const name of ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'x-portkey-api-key', 'helicone-auth', 'ocp-apim-subscription-key', 'x-relay-token', 'x-auth-token', 'cookie', 'set-cookie', 'x-amz-security-token', 'x-client-secret']) {
      expect(SECRET_HEADER.test(name), name).toBe(true);
    }
    // Relay and provider headers that only look like it: hiding them would hide what happened, or break an export.
    for (const name of ['accept', 'content-type', 'anthropic-version', 'anthropic-beta', 'user-agent', 'x-team', 'openai-organization', 'www-authenticate', 'x-request-id', 'x-litellm-key-spend', 'x-litellm-key-remaining-requests-gpt-4', 'x-portkey-provider', 'x-portkey-trace-id', 'helicone-session-id', 'x-session-affinity', 'azureml-model-session', 'idempotency-key', 'x-token-count', 'x-ratelimit-remaining-tokens', 'anthropic-ratelimit-input-tokens-remaining']) {
      expect(SECRET_HEADER.test(name), name).toBe(false);
    }
  });

  it('exported code masks such headers', () => {
    const code = exportCode('curl', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'bearer',
      extraHeaders: { 'helicone-auth': 'Bearer sk-helicone-SECRET', 'ocp-apim-subscription-key': 'apim-SECRET', 'x-team': 'blue', 'x-portkey-provider': 'openai' },
      protocol: 'chat',
      body: { model: 'm', messages: [] },
    });
    expect(code).not.toContain('sk-helicone-SECRET');
    expect(code).not.toContain('apim-SECRET');
    expect(code).toContain("-H 'helicone-auth: <SECRET>'");
    expect(code).toContain("-H 'x-team: blue'");
    expect(code).toContain("-H 'x-portkey-provider: openai'");
  });
});

import { describe, expect, it } from 'vitest';
import { SECRET_HEADER, secretPlaceholder } from './request-headers';
import { exportCode } from './code-export';

describe('secret header names', () => {
  it('covers every name with a credential word in it, in any case, and not the ordinary ones', () => {
    const credentials = ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key'];
    credentials.push(
      'x-portkey-api-key',
      'helicone-auth',
      'ocp-apim-subscription-key',
      'x-relay-token',
      'x-auth-token',
    );
    credentials.push('cookie', 'set-cookie', 'x-amz-security-token', 'x-client-secret');
    // Names gateways invent that the earlier, shorter list let through in clear (issue 25).
    const invented = [
      'x-portkey-virtual-key',
      'x-functions-key',
      'x-gateway-key',
      'x-llm-key',
      'x-jwt',
      'X-JWT-Assertion',
    ];
    invented.push('x-request-signature', 'x-db-password', 'idempotency-key', 'x-apikey', 'x-litellm-key-spend');
    for (const name of [...credentials, ...invented]) expect(SECRET_HEADER.test(name), name).toBe(true);
    const ordinary = ['accept', 'content-type', 'anthropic-version', 'anthropic-beta', 'user-agent', 'x-team'];
    ordinary.push(
      'openai-organization',
      'x-request-id',
      'x-portkey-provider',
      'x-portkey-trace-id',
      'x-portkey-config',
    );
    ordinary.push('monkey-patch', 'helicone-session-id', 'x-session-affinity', 'azureml-model-session');
    for (const name of ordinary) expect(SECRET_HEADER.test(name), name).toBe(false);
  });

  it('names the placeholder of a secret header after it', () => {
    expect(secretPlaceholder('x-portkey-virtual-key')).toBe('<X_PORTKEY_VIRTUAL_KEY>');
    expect(secretPlaceholder('Helicone-Auth')).toBe('<HELICONE_AUTH>');
    expect(secretPlaceholder('-')).toBe('<SECRET>');
  });

  it('exported code writes a placeholder named after each secret header, by name or marked in the profile', () => {
    const code = exportCode('curl', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'bearer',
      extraHeaders: {
        'helicone-auth': 'Bearer sk-helicone-SECRET',
        'ocp-apim-subscription-key': 'apim-SECRET',
        'x-team': 'blue',
        'x-portkey-provider': 'openai',
      },
      protocol: 'chat',
      body: { model: 'm', messages: [] },
    });
    expect(code).not.toContain('sk-helicone-SECRET');
    expect(code).not.toContain('apim-SECRET');
    expect(code).toContain("-H 'helicone-auth: <HELICONE_AUTH>'");
    expect(code).toContain("-H 'x-team: blue'");
    expect(code).toContain("-H 'x-portkey-provider: openai'");
    const marked = exportCode('curl', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'bearer',
      extraHeaders: { 'x-tenant': 'tenant-SECRET', 'x-team': 'blue' },
      secretHeaders: ['X-Tenant'],
      protocol: 'chat',
      body: { model: 'm', messages: [] },
    });
    expect(marked).not.toContain('tenant-SECRET');
    expect(marked).toContain("-H 'x-tenant: <X_TENANT>'");
    expect(marked).toContain("-H 'x-team: blue'");
  });
});

import { describe, expect, it } from 'vitest';
import { importForeign, type ForeignImport } from './import-foreign';

const postman = {
  info: { name: 'Gateway', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  variable: [
    { key: 'model', value: 'claude-sim-sonnet' },
    { key: 'n', value: 3 },
  ],
  auth: { type: 'apikey' },
  item: [
    {
      name: 'Smoke',
      item: [
        {
          name: 'Hello',
          request: {
            method: 'POST',
            header: [
              { key: 'x-api-key', value: 'sk-live-123' },
              { key: 'anthropic-beta', value: 'tools-2024' },
              { key: 'x-off', value: '1', disabled: true },
            ],
            url: { raw: '{{baseUrl}}/v1/messages', host: ['{{baseUrl}}'], path: ['v1', 'messages'] },
            body: {
              mode: 'raw',
              raw: '{"model":"{{model}}","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}',
            },
          },
        },
        { name: 'Models', request: { method: 'GET', url: '{{baseUrl}}/v1/models' } },
      ],
    },
    { name: 'Form', request: { method: 'POST', url: 'https://x/v1/chat/completions', body: { mode: 'formdata' } } },
    { name: 'Other', request: { method: 'POST', url: 'https://x/v2/thing', body: { mode: 'raw', raw: '{}' } } },
  ],
};

describe('Postman and Bruno import', () => {
  it('imports a Postman Messages request into its folder, without the key, listing what stayed out', () => {
    const out = importForeign(JSON.stringify(postman)) as ForeignImport;
    expect(out.format).toBe('Postman');
    expect(out.variables).toEqual({ model: 'claude-sim-sonnet', n: '3' });
    expect(out.requests).toEqual([
      {
        name: 'Hello',
        folder: ['Smoke'],
        protocol: 'messages',
        body: { model: '{{model}}', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
        headers: { 'anthropic-beta': 'tools-2024' },
      },
    ]);
    expect(JSON.stringify(out)).not.toContain('sk-live-123');
    expect(out.leftOut.map((l) => l.name)).toEqual([
      'Collection auth',
      'Form',
      'Smoke / Hello: header x-api-key',
      'Smoke / Models',
      'Other',
    ]);
  });

  it('imports a Bruno export with folders and non-secret variables', () => {
    const bruno = {
      name: 'Relay checks',
      version: '1',
      environments: [
        {
          name: 'dev',
          variables: [
            { name: 'model', value: 'gpt-sim-mini', enabled: true },
            { name: 'key', value: 's', secret: true, enabled: true },
          ],
        },
      ],
      items: [
        {
          type: 'folder',
          name: 'Responses',
          items: [
            {
              type: 'http-request',
              name: 'One',
              request: {
                method: 'POST',
                url: '{{host}}/v1/responses',
                headers: [],
                body: { mode: 'json', json: '{"model":"{{model}}","input":"hi"}' },
              },
            },
          ],
        },
        { type: 'graphql-request', name: 'GQL', request: { method: 'POST', url: '/graphql' } },
      ],
    };
    const out = importForeign(JSON.stringify(bruno)) as ForeignImport;
    expect(out.format).toBe('Bruno');
    expect(out.requests.map((r) => [r.folder, r.protocol, r.body.model])).toEqual([
      [['Responses'], 'responses', '{{model}}'],
    ]);
    expect(out.variables).toEqual({ model: 'gpt-sim-mini' });
    expect(out.leftOut.map((l) => l.name)).toEqual(['Variable key', 'GQL']);
  });

  it('says why a file is not a collection', () => {
    expect(importForeign('nope')).toEqual({ error: expect.stringMatching(/not JSON/) });
    expect(importForeign('{"a":1}')).toEqual({ error: expect.stringMatching(/neither a Postman/) });
  });
});

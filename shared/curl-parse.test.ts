import { describe, expect, it } from 'vitest';
import { parseCurl, shellWords } from './curl-parse';

describe('import from curl', () => {
  it('reads the usual shapes: line continuations, quotes, --json, --url=, -X', () => {
    const r = parseCurl(`curl https://api.example.com/v1/chat/completions \\
      -H "Authorization: Bearer sk-secret-000000" \\
      -H 'content-type: application/json' \\
      -d '{"model":"gpt-x","messages":[{"role":"user","content":"it'\\''s"}]}'`);
    expect(r).toEqual({
      protocol: 'chat',
      path: '/v1/chat/completions',
      method: 'POST',
      body: { model: 'gpt-x', messages: [{ role: 'user', content: "it's" }] },
      notes: ['The key in the command was not stored: keys live only in a connection profile.'],
    });
    expect(parseCurl(`curl --url=https://x.example/v1/responses --json '{"model":"m","input":"hi"}'`)).toMatchObject({
      protocol: 'responses',
      body: { input: 'hi' },
    });
    expect(
      parseCurl(`curl -X POST https://x.example/relay/v1/messages/count_tokens -d '{"model":"m","messages":[]}'`),
    ).toMatchObject({ protocol: 'messages', path: '/v1/messages/count_tokens' });
    expect(shellWords(`a "b \\"c\\"" $'d\\ne'`)).toEqual(['a', 'b "c"', 'd\ne']);
  });

  it('explains what it cannot import', () => {
    expect(parseCurl('wget https://x')).toEqual({ error: 'That is not a curl command (it should start with "curl").' });
    expect(parseCurl(`curl https://x.example/v1/embeddings -d '{}'`)).toMatchObject({
      error: expect.stringMatching(/none of the five gateway endpoints/),
    });
    expect(parseCurl(`curl https://x.example/v1/messages -d '{"model":'`)).toMatchObject({
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(parseCurl(`curl https://x.example/v1/messages -d @body.json`)).toMatchObject({
      error: expect.stringMatching(/from a file/),
    });
    expect(parseCurl(`curl 'https://x.example/v1/messages`)).toMatchObject({
      error: expect.stringMatching(/unterminated/),
    });
  });
});

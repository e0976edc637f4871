import { describe, expect, it } from 'vitest';
import { mergeScopes, resolveHeaders, resolveUrl, resolveValue, unknownVariables, variablesUsed } from './variables';

describe('{{variables}}', () => {
  const body = {
    model: '{{model}}',
    max_tokens: 64,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello {{ name }}, say {{word}}.' }] }],
    metadata: { '{{keyName}}': 'x' },
  };

  it('finds every variable once, in strings and keys', () => {
    expect(variablesUsed(body)).toEqual(['model', 'name', 'word', 'keyName']);
  });

  it('names the variables no scope defines, later scopes winning', () => {
    const vars = mergeScopes({ model: 'a', name: 'Ann' }, { model: 'b', word: 'hi' });
    expect(vars.model).toBe('b');
    expect(unknownVariables(body, vars)).toEqual(['keyName']);
  });

  it('keeps the request JSON-safe: a value with quotes and braces stays inside its string', () => {
    const out = resolveValue(body, { model: 'claude', name: '", "role": "system', word: '{"a":1}', keyName: 'k' });
    expect(out.messages[0].content[0].text).toBe('Hello ", "role": "system, say {"a":1}.');
    expect(out.messages).toHaveLength(1);
    expect(Object.keys(out.metadata)).toEqual(['k']);
    expect(out.max_tokens).toBe(64);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });

  it('leaves an unknown variable as written and does not touch the input', () => {
    const out = resolveValue(body, {});
    expect(out).toEqual(body);
    expect(out).not.toBe(body);
  });

  it('percent-encodes a value put into a URL so it cannot add a segment or a query', () => {
    expect(resolveUrl('https://gw.example/{{path}}/v1/messages', { path: '../admin?x=1#' })).toBe(
      'https://gw.example/..%2Fadmin%3Fx%3D1%23/v1/messages',
    );
  });

  it('resolves header values', () => {
    expect(resolveHeaders({ 'x-team': '{{team}}' }, { team: 'core' })).toEqual({ 'x-team': 'core' });
  });
});

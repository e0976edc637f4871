/**
 * The exported curl is not just looked at: it is run against the simulator with <API_KEY> replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './simulator';
import { exportCode, pythonLiteral, KEY_PLACEHOLDER } from '../../shared/code-export';
import { parseCurl } from '../../shared/curl-parse';
import type { ProtocolId } from '../../shared/protocols/types';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
});
afterAll(() => sim.close());

const BODIES: Record<ProtocolId, Record<string, unknown>> = {
  messages: { model: 'claude-sim-sonnet', max_tokens: 64, messages: [{ role: 'user', content: "It's a test — with quotes' and émoji 🚀" }], x_route_hint: 'blue' },
  chat: { model: 'gpt-sim-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] },
  responses: { model: 'gpt-sim-4o', input: 'hi', max_output_tokens: 64 },
};

function run(cmd: string): Promise<{ stdout: string; code: number }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `${cmd.trim()} -s -w '\\nHTTP %{http_code}'`], { timeout: 20_000 }, (err, stdout) => resolve({ stdout, code: err ? 1 : 0 }));
  });
}

describe('export as code', () => {
  for (const protocol of ['messages', 'chat', 'responses'] as ProtocolId[]) {
    it(`${protocol}: the generated curl runs against the gateway and returns 200`, async () => {
      const code = exportCode('curl', { baseUrl: `${sim.url}/v1`, authScheme: 'native', extraHeaders: {}, protocol, body: BODIES[protocol] });
      expect(code).toContain(KEY_PLACEHOLDER);
      expect(code).not.toContain(DEMO_KEY);
      const { stdout } = await run(code.replaceAll(KEY_PLACEHOLDER, DEMO_KEY));
      expect(stdout.trim().split('\n').at(-1)).toBe('HTTP 200');
      if (BODIES[protocol].stream) expect(stdout).toContain('data: [DONE]');
    });
  }

  it('round-trips through import from curl: same endpoint, same body, and the key is reported, not returned', () => {
    for (const protocol of ['messages', 'chat', 'responses'] as ProtocolId[]) {
      const code = exportCode('curl', { baseUrl: 'https://gw.example.com', authScheme: 'both', extraHeaders: { 'x-team': 'blue' }, protocol, body: BODIES[protocol] });
      const parsed = parseCurl(code.replaceAll(KEY_PLACEHOLDER, 'sk-live-abcdef123456'));
      expect(parsed).toMatchObject({ protocol, method: 'POST', body: BODIES[protocol] });
      expect(JSON.stringify(parsed)).not.toContain('sk-live-abcdef123456');
      expect('notes' in parsed && parsed.notes.join(' ')).toMatch(/key .* not stored/);
    }
  });

  it('writes SDK code with the key placeholder, the right base URL per SDK, streaming loops, and unknown fields kept', () => {
    const py = exportCode('python', { baseUrl: 'https://gw.example.com/v1', authScheme: 'native', extraHeaders: { 'x-api-secret': 'shh' }, protocol: 'messages', body: BODIES.messages });
    expect(py).toContain('api_key="<API_KEY>"');
    expect(py).toContain('base_url="https://gw.example.com"');
    expect(py).toContain('extra_body');
    expect(py).toContain('"x_route_hint": "blue"');
    expect(py).toContain('<SECRET>');
    expect(py).not.toContain('shh');
    const ts = exportCode('typescript', { baseUrl: 'https://gw.example.com', authScheme: 'native', extraHeaders: {}, protocol: 'chat', body: BODIES.chat });
    expect(ts).toContain("baseURL: \"https://gw.example.com/v1\"");
    expect(ts).toContain('for await (const event of stream)');
    const http = exportCode('http', { baseUrl: 'https://gw.example.com', authScheme: 'bearer', extraHeaders: {}, protocol: 'responses', body: BODIES.responses });
    expect(http.split('\n').slice(0, 2)).toEqual(['POST /v1/responses HTTP/1.1', 'Host: gw.example.com']);
    expect(http).toContain('authorization: Bearer <API_KEY>');
    expect(pythonLiteral({ a: [true, null, 1.5, 'x'] })).toBe('{\n    "a": [\n        True,\n        None,\n        1.5,\n        "x",\n    ],\n}');
  });
});

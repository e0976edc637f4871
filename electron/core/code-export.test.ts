/**
 * The exported curl is not just looked at: it is run against the simulator with <API_KEY> replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './simulator';
import { exportCode, exportInputFromLedger, pythonLiteral, KEY_PLACEHOLDER } from '../../shared/code-export';
import { buildRequest } from './http/request';
import type { Profile } from './profiles';
import { AUTH_SCHEMES } from '../../shared/contract/profiles';
import { parseCurl } from '../../shared/curl-parse';
import type { ProtocolId } from '../../shared/protocols/types';

let sim: RunningSimulator;
let scratch: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
  // Exported scripts run from here, resolving the official SDKs from the project's node_modules.
  scratch = mkdtempSync(path.join(os.tmpdir(), 'gp-export-'));
  symlinkSync(path.resolve('node_modules'), path.join(scratch, 'node_modules'), 'dir');
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await sim.close();
});

/** Runs an exported TypeScript script with tsx, the key placeholder replaced, as a user would. */
function runTs(code: string, name: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const file = path.join(scratch, `${name}.mts`);
  writeFileSync(file, code.replaceAll(KEY_PLACEHOLDER, DEMO_KEY));
  return new Promise((resolve) => {
    execFile(
      path.resolve('node_modules/.bin/tsx'),
      [file],
      { cwd: scratch, timeout: 30_000, env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' } },
      (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? 1 : 0 }),
    );
  });
}

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const BODIES: Record<ProtocolId, Record<string, unknown>> = {
  messages: {
    model: 'claude-sim-sonnet',
    max_tokens: 64,
    messages: [{ role: 'user', content: "It's a test — with quotes' and émoji 🚀" }],
    x_route_hint: 'blue',
  },
  chat: {
    model: 'gpt-sim-4o',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'hi' }],
  },
  responses: { model: 'gpt-sim-4o', input: 'hi', max_output_tokens: 64 },
};

const PATHS: Record<ProtocolId, string> = {
  messages: '/v1/messages',
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
};

function run(cmd: string): Promise<{ stdout: string; code: number }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `${cmd.trim()} -s -w '\\nHTTP %{http_code}'`], { timeout: 20_000 }, (err, stdout) =>
      resolve({ stdout, code: err ? 1 : 0 }),
    );
  });
}

describe('export as code', () => {
  for (const protocol of ['messages', 'chat', 'responses'] as ProtocolId[]) {
    it(`${protocol}: the generated curl runs against the gateway and returns 200`, async () => {
      const code = exportCode('curl', {
        baseUrl: `${sim.url}/v1`,
        authScheme: 'native',
        extraHeaders: {},
        protocol,
        body: BODIES[protocol],
      });
      expect(code).toContain(KEY_PLACEHOLDER);
      expect(code).not.toContain(DEMO_KEY);
      const { stdout } = await run(code.replaceAll(KEY_PLACEHOLDER, DEMO_KEY));
      expect(stdout.trim().split('\n').at(-1)).toBe('HTTP 200');
      if (BODIES[protocol].stream) expect(stdout).toContain('data: [DONE]');
    });
  }

  it('from a ledger: the recorded request goes out again with the same URL and headers, even after its profile changed', async () => {
    for (const protocol of ['messages', 'chat', 'responses'] as ProtocolId[]) {
      for (const authScheme of AUTH_SCHEMES) {
        const profile: Profile = {
          id: 'p',
          name: 'P',
          baseUrl: `${sim.url}/v1`,
          authScheme,
          extraHeaders: { 'x-team': 'blue', 'x-relay-token': 'tok-123' },
        };
        const sent = buildRequest(profile, DEMO_KEY, 'POST', PATHS[protocol], BODIES[protocol], {
          stream: BODIES[protocol].stream === true,
        });
        const input = exportInputFromLedger(
          { protocol, url: sent.url, headers: sent.redactedHeaders },
          BODIES[protocol],
        )!;
        const code = exportCode('curl', input);
        expect(code, `${protocol}/${authScheme}`).toContain(`'${sent.url}'`);
        // Every header the app sent is in the export, the key as the placeholder and the secret header masked.
        for (const [name, value] of Object.entries(sent.headers)) {
          if (name === 'user-agent') continue;
          const expected = value.replace(DEMO_KEY, KEY_PLACEHOLDER).replace('tok-123', '<X_RELAY_TOKEN>');
          expect(code, `${protocol}/${authScheme}: ${name}`).toContain(`-H '${name}: ${expected}'`);
        }
        expect(code).not.toContain('[redacted');
      }
      const input = exportInputFromLedger(
        {
          protocol,
          url: `${sim.url}${PATHS[protocol]}`,
          headers: { 'x-api-key': '[redacted …3456]', authorization: 'Bearer [redacted …3456]' },
        },
        BODIES[protocol],
      )!;
      const { stdout } = await run(exportCode('curl', input).replaceAll(KEY_PLACEHOLDER, DEMO_KEY));
      expect(stdout.trim().split('\n').at(-1)).toBe('HTTP 200');
    }
    expect(
      exportInputFromLedger({ protocol: 'chat', url: 'https://gw.example.com/v1/responses', headers: {} }, {}),
    ).toBeUndefined();
  });

  it('round-trips through import from curl: same endpoint, same body, and the key is reported, not returned', () => {
    for (const protocol of ['messages', 'chat', 'responses'] as ProtocolId[]) {
      const code = exportCode('curl', {
        baseUrl: 'https://gw.example.com',
        authScheme: 'both',
        extraHeaders: { 'x-team': 'blue' },
        protocol,
        body: BODIES[protocol],
      });
      const parsed = parseCurl(code.replaceAll(KEY_PLACEHOLDER, 'sk-live-abcdef123456'));
      expect(parsed).toMatchObject({ protocol, method: 'POST', body: BODIES[protocol] });
      expect(JSON.stringify(parsed)).not.toContain('sk-live-abcdef123456');
      expect('notes' in parsed && parsed.notes.join(' ')).toMatch(/key .* not stored/);
    }
  });

  it('writes SDK code with the key placeholder, the right base URL per SDK, streaming loops, and unknown fields kept', () => {
    const py = exportCode('python', {
      baseUrl: 'https://gw.example.com/v1',
      authScheme: 'native',
      extraHeaders: { 'x-api-secret': 'shh' },
      protocol: 'messages',
      body: BODIES.messages,
    });
    expect(py).toContain('api_key="<API_KEY>"');
    expect(py).toContain('base_url="https://gw.example.com"');
    expect(py).toContain('extra_body');
    expect(py).toContain('"x_route_hint": "blue"');
    expect(py).toContain('"x-api-secret": "<X_API_SECRET>"');
    expect(py).not.toContain('shh');
    const ts = exportCode('typescript', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'native',
      extraHeaders: {},
      protocol: 'chat',
      body: BODIES.chat,
    });
    expect(ts).toContain('baseURL: "https://gw.example.com/v1"');
    expect(ts).toContain('for await (const event of stream)');
    const http = exportCode('http', {
      baseUrl: 'https://gw.example.com',
      authScheme: 'bearer',
      extraHeaders: {},
      protocol: 'responses',
      body: BODIES.responses,
    });
    expect(http.split('\n').slice(0, 2)).toEqual(['POST /v1/responses HTTP/1.1', 'Host: gw.example.com']);
    expect(http).toContain('authorization: Bearer <API_KEY>');
    expect(pythonLiteral({ a: [true, null, 1.5, 'x'] })).toBe(
      '{\n    "a": [\n        True,\n        None,\n        1.5,\n        "x",\n    ],\n}',
    );
  });

  describe('non-streaming Messages with a large max_tokens', () => {
    const big = (max_tokens: number) => ({
      model: 'claude-sim-sonnet',
      max_tokens,
      messages: [{ role: 'user', content: 'hi' }],
    });

    for (const max_tokens of [1024, 32_000, 128_000]) {
      it(`the exported TypeScript runs with the official SDK against the gateway (max_tokens ${max_tokens})`, async () => {
        const code = exportCode('typescript', {
          baseUrl: sim.url,
          authScheme: 'native',
          extraHeaders: {},
          protocol: 'messages',
          body: big(max_tokens),
        });
        const before = sim.requests.length;
        const r = await runTs(code, `messages_${max_tokens}`);
        // Without an explicit timeout the SDK throws "Streaming is required…" before sending anything.
        expect(r.stderr).not.toContain('Streaming is required');
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ type: 'message', role: 'assistant' });
        expect(sim.requests.slice(before).map((q) => q.path)).toEqual(['/v1/messages']);
      });
    }

    it('passes the timeout the SDK would estimate, in ms for TypeScript and seconds for Python, and only where needed', () => {
      const ts = exportCode('typescript', {
        baseUrl: 'https://gw.example.com',
        authScheme: 'native',
        extraHeaders: {},
        protocol: 'messages',
        body: big(64_000),
      });
      expect(ts).toContain('Anthropic.MessageCreateParamsNonStreaming, { timeout: 1800000 });');
      const py = exportCode('python', {
        baseUrl: 'https://gw.example.com',
        authScheme: 'native',
        extraHeaders: {},
        protocol: 'messages',
        body: big(64_000),
      });
      expect(py).toContain('response = client.messages.create(**request, timeout=1800.0)');
      expect(
        exportCode('python', {
          baseUrl: 'https://gw.example.com',
          authScheme: 'native',
          extraHeaders: {},
          protocol: 'messages',
          body: big(1024),
        }),
      ).toContain('timeout=600.0');
      // Streaming requests are never refused, and the OpenAI SDK has no such rule: no timeout written there.
      expect(
        exportCode('typescript', {
          baseUrl: 'https://gw.example.com',
          authScheme: 'native',
          extraHeaders: {},
          protocol: 'messages',
          body: { ...big(64_000), stream: true },
        }),
      ).not.toContain('timeout');
      expect(
        exportCode('python', {
          baseUrl: 'https://gw.example.com',
          authScheme: 'native',
          extraHeaders: {},
          protocol: 'chat',
          body: { model: 'm', max_tokens: 64_000, messages: [] },
        }),
      ).not.toContain('timeout');
    });

    it.skipIf(!hasPython)(
      'the exported Python runs and gives the SDK its per-request timeout (the option its rule checks)',
      () => {
        // A stand-in for the Python SDK (it cannot be installed here) that applies the rule of its
        // resources/messages/messages.py: `if not stream and not is_given(timeout) and client.timeout == DEFAULT_TIMEOUT`
        // → _calculate_nonstreaming_timeout(max_tokens), which raises above 10 minutes at an hour per 128k tokens.
        const pkg = path.join(scratch, 'py', 'anthropic');
        mkdirSync(pkg, { recursive: true });
        writeFileSync(
          path.join(pkg, '__init__.py'),
          [
            'import json',
            'class _Msg:',
            '    def __init__(self, kw): self.kw = kw',
            '    def model_dump_json(self, indent=None): return json.dumps({"type": "message", "timeout": self.kw.get("timeout"), "max_tokens": self.kw["max_tokens"]})',
            'class _Messages:',
            '    def create(self, **kw):',
            '        if not kw.get("stream") and "timeout" not in kw and 3600 * kw["max_tokens"] / 128000 > 600:',
            '            raise ValueError("Streaming is required for operations that may take longer than 10 minutes.")',
            '        return _Msg(kw)',
            'class Anthropic:',
            '    def __init__(self, **kw): self.messages = _Messages()',
            '',
          ].join('\n'),
        );
        const file = path.join(scratch, 'py', 'export.py');
        writeFileSync(
          file,
          exportCode('python', {
            baseUrl: sim.url,
            authScheme: 'native',
            extraHeaders: {},
            protocol: 'messages',
            body: big(32_000),
          }),
        );
        const out = execFileSync('python3', [file], {
          cwd: path.join(scratch, 'py'),
          encoding: 'utf8',
          env: { ...process.env, PYTHONPATH: path.join(scratch, 'py') },
        });
        expect(JSON.parse(out)).toEqual({ type: 'message', timeout: 900, max_tokens: 32_000 });
      },
    );
  });
});

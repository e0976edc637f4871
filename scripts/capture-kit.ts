/**
 * Runs a real coding-agent CLI against a gateway through a logging proxy: what the capture script stores as a
 * fixture and what the real-agent test judges (docs/agents.md "Captures"). The CLI runs with a temp HOME, its
 * telemetry off, a minimal environment (nothing of ours is inherited), in an empty temp dir holding one file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, DEMO_KEY } from '../electron/core/simulator';
import type { Capture, CapturedAgent, CapturedRequest } from '../electron/core/agents/captures';
import { placeholders } from '../electron/core/agents/captures/placeholders';

export type { Capture, CapturedAgent, CapturedRequest };
export { placeholders };

export interface AgentRun {
  agent: CapturedAgent;
  version: string;
  /** Whether `model` is an id the CLI knows (its own catalogue); the proxy routes such an id to a Demo model. */
  modelIdKnown: boolean;
  model: string;
}

export const captureFile = (agent: CapturedAgent, known: boolean) => `${agent}-${known ? 'known' : 'unknown'}-id.json`;

/** The file the prompt names, in the CLI's otherwise empty working dir. */
export const NOTES = { name: 'notes.txt', text: 'The build passes and the release is on Friday.\n' };
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie']);
const DROPPED_HEADERS = new Set(['host', 'content-length', 'connection']);

/** A Demo model for a real id the CLI knows, so a capture of its known-id shape still gets an answer. */
export function demoModelFor(id: string, fallback: Record<CapturedAgent, string>, agent: CapturedAgent): string {
  return id.includes('sim-') ? id : fallback[agent];
}

interface Proxy {
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

/** Logs each request and forwards it (model routed by `route`) to `target`, streaming the answer back. */
export async function startCaptureProxy(target: string, route: (model: string) => string): Promise<Proxy> {
  const requests: CapturedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw || undefined;
      try {
        if (raw) body = JSON.parse(raw);
      } catch {
        // kept as text: a malformed body is evidence too
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (DROPPED_HEADERS.has(k) || v === undefined) continue;
        headers[k] = CREDENTIAL_HEADERS.has(k) ? '<redacted>' : Array.isArray(v) ? v.join(', ') : v;
      }
      const entry: CapturedRequest = { method: req.method ?? '', path: req.url ?? '/', headers, body };
      requests.push(entry);
      let out = raw;
      let renamed: [string, string] | undefined;
      if (body && typeof body === 'object' && 'model' in body && typeof body.model === 'string') {
        const to = route(body.model);
        out = JSON.stringify({ ...body, model: to });
        // The answer names the model asked for: Claude Code drops thinking signed by another model.
        if (to !== body.model) renamed = [`"model":"${to}"`, `"model":"${body.model}"`];
      }
      const fwd = http.request(
        new URL(req.url ?? '/', target),
        {
          method: req.method,
          headers: { ...req.headers, host: new URL(target).host, 'content-length': Buffer.byteLength(out) },
        },
        (up) => {
          entry.status = up.statusCode;
          const headers = { ...up.headers };
          if (renamed) delete headers['content-length'];
          res.writeHead(up.statusCode ?? 502, headers);
          if (!renamed) return void up.pipe(res);
          const [from, to] = renamed;
          let rest = '';
          up.on('data', (c: Buffer) => {
            const text = rest + c.toString('utf8');
            const cut = text.lastIndexOf('\n') + 1;
            rest = text.slice(cut);
            res.write(text.slice(0, cut).split(from).join(to));
          });
          up.on('end', () => res.end(rest.split(from).join(to)));
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface CliPaths {
  claude: string;
  codex: string;
  qwen: string;
}

export const cliPaths = (prefix: string): CliPaths => ({
  claude: join(prefix, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe'),
  codex: join(prefix, 'node_modules/@openai/codex/bin/codex.js'),
  qwen: join(prefix, 'node_modules/@qwen-code/qwen-code/cli.js'),
});

export interface CliResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the CLI with nothing of this process's environment but PATH; killed after `timeoutMs`, with every process
 * it started: Qwen Code re-launches itself as a child that holds the pipes, so killing the parent alone left the
 * run waiting for them to close.
 */
function runCli(cmd: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number) {
  return new Promise<CliResult>((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr });
    });
  });
}

/**
 * Qwen Code as a chat-completions agent: its OpenAI provider pointed at the gateway by environment, usage
 * statistics and telemetry off in its settings, the default approval mode (read-only tools run, a shell
 * command or an edit is refused in headless mode).
 */
function runQwen(
  cli: string,
  o: { model: string; prompt: string; url: string; key: string; home: string; cwd: string },
  timeoutMs: number,
): Promise<CliResult> {
  mkdirSync(join(o.home, '.qwen'), { recursive: true });
  writeFileSync(
    join(o.home, '.qwen/settings.json'),
    JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  return runCli(
    process.execPath,
    [cli, '--auth-type', 'openai', '-m', o.model, o.prompt],
    { HOME: o.home, OPENAI_BASE_URL: `${o.url}/v1`, OPENAI_API_KEY: o.key, OPENAI_MODEL: o.model },
    o.cwd,
    timeoutMs,
  );
}

export interface AgentSession extends CliResult {
  requests: CapturedRequest[];
  cwd: string;
  home: string;
}

/** Runs one CLI session in print mode against `gateway` (through a capture proxy); temp dirs removed after. */
export async function runAgent(
  o: { agent: CapturedAgent; model: string; prompt: string; clis: string; gateway: string; key: string },
  route: (model: string) => string = (m) => m,
  timeoutMs = 120_000,
): Promise<AgentSession> {
  const proxy = await startCaptureProxy(o.gateway, route);
  const home = mkdtempSync(join(tmpdir(), 'agent-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'agent-cwd-'));
  writeFileSync(join(cwd, NOTES.name), NOTES.text);
  try {
    const paths = cliPaths(o.clis);
    let result: CliResult;
    if (o.agent === 'claude-code') {
      result = await runCli(
        paths.claude,
        ['-p', o.prompt, '--model', o.model],
        {
          HOME: home,
          ANTHROPIC_BASE_URL: proxy.url,
          ANTHROPIC_API_KEY: o.key,
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
        cwd,
        timeoutMs,
      );
    } else if (o.agent === 'qwen-code') {
      result = await runQwen(
        paths.qwen,
        { model: o.model, prompt: o.prompt, url: proxy.url, key: o.key, home, cwd },
        timeoutMs,
      );
    } else {
      writeFileSync(
        join(home, 'config.toml'),
        [
          `model = "${o.model}"`,
          'model_provider = "demo"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '[model_providers.demo]',
          'name = "Demo gateway"',
          `base_url = "${proxy.url}/v1"`,
          'wire_api = "responses"',
          'env_key = "DEMO_GATEWAY_KEY"',
          '',
        ].join('\n'),
      );
      result = await runCli(
        process.execPath,
        [paths.codex, 'exec', '--skip-git-repo-check', '-s', 'read-only', '-m', o.model, o.prompt],
        { HOME: home, CODEX_HOME: home, DEMO_GATEWAY_KEY: o.key },
        cwd,
        timeoutMs,
      );
    }
    return { ...result, requests: proxy.requests, cwd, home };
  } finally {
    await proxy.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** What the CLI executed, read from the results it sent back: `Name: start of the result`. */
export function toolsRun(requests: CapturedRequest[]): string[] {
  const seen = new Map<string, string>();
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  for (const r of requests) {
    if (!isObj(r.body)) continue;
    const names = new Map<unknown, string>();
    const items: unknown[] = [
      ...(Array.isArray(r.body.messages) ? (r.body.messages as unknown[]) : []),
      ...(Array.isArray(r.body.input) ? (r.body.input as unknown[]) : []),
    ];
    for (const m of items.filter(isObj)) {
      if (m.type === 'function_call' || m.type === 'custom_tool_call')
        names.set(m.call_id, `${String(m.name)} ${JSON.stringify(m.arguments ?? m.input ?? '')}`);
      if (m.type === 'function_call_output' || m.type === 'custom_tool_call_output')
        seen.set(String(m.call_id), `${names.get(m.call_id) ?? '?'} → ${JSON.stringify(m.output).slice(0, 80)}`);
      // Chat completions: the assistant's tool_calls, then a `tool` message per call.
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : []) {
        const fn = isObj(c.function) ? c.function : {};
        names.set(c.id, `${String(fn.name)} ${typeof fn.arguments === 'string' ? fn.arguments : ''}`);
      }
      if (m.role === 'tool')
        seen.set(
          String(m.tool_call_id),
          `${names.get(m.tool_call_id) ?? '?'} → ${JSON.stringify(m.content).slice(0, 80)}`,
        );
      for (const b of Array.isArray(m.content) ? m.content.filter(isObj) : []) {
        if (b.type === 'tool_use') names.set(b.id, `${String(b.name)} ${JSON.stringify(b.input)}`);
        if (b.type === 'tool_result')
          seen.set(
            String(b.tool_use_id),
            `${names.get(b.tool_use_id) ?? '?'} → ${JSON.stringify(b.content).slice(0, 80)}`,
          );
      }
    }
  }
  return [...seen.values()];
}

const DEMO_FOR: Record<CapturedAgent, string> = {
  'claude-code': 'claude-sim-sonnet',
  codex: 'gpt-sim-o3',
  'qwen-code': 'gpt-sim-4o',
};

/** One capture: the Demo gateway on loopback, the CLI through the proxy, the requests as a fixture. */
export async function captureRun(run: AgentRun, o: { clis: string; prompt: string }): Promise<Capture> {
  const sim = await startSimulator({ delayMs: 0 });
  try {
    const session = await runAgent(
      { agent: run.agent, model: run.model, prompt: o.prompt, clis: o.clis, gateway: sim.url, key: DEMO_KEY },
      (m) => demoModelFor(m, DEMO_FOR, run.agent),
    );
    if (session.exitCode !== 0) console.error(session.stderr.slice(-2000));
    return {
      agent: run.agent,
      version: run.version,
      capturedAt: new Date().toISOString(),
      modelIdKnown: run.modelIdKnown,
      model: run.model,
      prompt: o.prompt,
      exitCode: session.exitCode,
      toolsRun: toolsRun(session.requests),
      requests: placeholders(session.requests, { cwd: session.cwd, home: session.home, model: run.model }),
    };
  } finally {
    await sim.close();
  }
}

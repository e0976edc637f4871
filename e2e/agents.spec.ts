import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

const KEY = 'sk-agents-e2e-key-98765';

test('check agents one by one: ready, degraded and not ready, with each step in the viewer and the composer', async ({
  app,
}) => {
  // Four checks of whole replayed sessions (docs/agents.md "Judging per agent"): longer than the default.
  test.setTimeout(150_000);
  await app.getByRole('tab', { name: 'Agents' }).click();
  const verdict = app.getByRole('region', { name: 'Agent verdict' });
  await app.getByRole('combobox', { name: 'Agent' }).selectOption('codex');

  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('gpt-sim-o3');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(verdict).toContainText(/^ready — all \d+ steps passed/, { timeout: 45_000 });
  await expect(verdict).toContainText('replaying Codex 0.171.0 (an id it does not know)');
  await verdict.getByRole('button', { name: 'Open run 2 of Whole sessions ×4 (turn 1 + turn 2)', exact: true }).click();
  await expect(verdict.getByRole('status', { name: 'Stream status' })).toContainText('complete');

  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('sim-relay-ignores-cache');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(verdict).toContainText(/^degraded — Cache read on the repeat turn/, { timeout: 45_000 });
  await expect(verdict).toContainText('every turn costs full price');

  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('sim-relay-key-pool');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(verdict).toContainText(/^not ready — Whole sessions ×4 \(turn 1 \+ turn 2\) \(HTTP 400\)/, {
    timeout: 45_000,
  });
  await expect(verdict).toContainText(/Codex would fail [1-3] of 4 \(\d+ %\) sessions, on its second turn: HTTP 400/);
  await expect(app.getByRole('button', { name: /^sim-relay-key-pool Codex CLI: not ready/ })).toBeVisible();

  await app.getByRole('combobox', { name: 'Agent' }).selectOption('claude-code');
  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('sim-relay-strips-signatures');
  await app.getByRole('combobox', { name: 'Small fast model' }).selectOption('claude-sim-haiku');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(verdict).toContainText(/^not ready — Signed thinking returned/, { timeout: 45_000 });
  await expect(verdict).toContainText('Claude Code would fail on its second turn: HTTP 400');

  // The failing turn, to try by hand: it opens in the Messages composer, saying where it came from.
  await verdict
    .getByRole('button', { name: 'Open run 2 of Whole sessions ×4 (turn 1 + turn 2) in the composer' })
    .click();
  await expect(app.getByRole('tab', { name: 'Messages' })).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByRole('tabpanel', { name: 'Messages' })).toContainText(
    'Step of the Claude Code check on sim-relay-strips-signatures.',
  );
});

test('Check all fills the agents × models matrix, kept after a reload, and exports a report without the key', async ({
  app,
  startGateway,
}) => {
  // Six checks of whole replayed sessions (docs/agents.md "Judging per agent"): longer than one check.
  test.setTimeout(150_000);
  const gw = await startGateway({ keys: { [KEY]: ['gpt-sim-4o', 'sim-relay-chat-text-tools'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Relay');
  await dialog.getByLabel('Base URL').fill(gw.url);
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: 'Check all (2 models × 3 agents)' }).click();
  await expect(app.getByRole('progressbar', { name: 'Check all progress' })).toBeVisible();
  await expect(app.getByRole('progressbar', { name: 'Check all progress' })).toBeHidden({ timeout: 90_000 });
  const matrix = app.getByRole('table', { name: 'Agent matrix' });
  await expect(
    matrix.getByRole('button', { name: /^sim-relay-chat-text-tools Chat-completions agent: not ready, / }),
  ).toBeVisible();
  await expect(matrix.getByRole('button', { name: /^sim-relay-chat-text-tools Codex CLI: ready, / })).toBeVisible();
  await expect(matrix.getByRole('button', { name: /^gpt-sim-4o Chat-completions agent: ready, / })).toBeVisible();

  await app.reload();
  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: /^sim-relay-chat-text-tools Chat-completions agent: not ready, / }).click();
  await expect(app.getByRole('region', { name: 'Agent verdict' })).toContainText(
    /^not ready — Turn 1: tool call \(HTTP 200\): a plain text reply/,
  );

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export report (Markdown)' }).click();
  const file = await (await download).path();
  const markdown = readFileSync(file, 'utf8');
  expect(markdown).toContain('# Gateway report: Relay');
  expect(markdown).toMatch(/\| sim-relay-chat-text-tools \| ready \(.*\) \| ready \(.*\) \| not ready \(.*\) \|/);
  expect(markdown).not.toContain(KEY);
  const html = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export report (HTML)' }).click();
  const page = readFileSync(await (await html).path(), 'utf8');
  expect(page).toMatch(/^<!DOCTYPE html>/);
  expect(page).not.toContain(KEY);
});

test('Connect an agent: a Claude Code–shaped request through the shown endpoint lands in the session and History', async ({
  app,
}) => {
  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: 'Connect an agent' }).click();
  const session = app.getByRole('region', { name: 'Agent session' });
  const line = await session.getByLabel('Claude Code', { exact: true }).innerText();
  const baseUrl = /ANTHROPIC_BASE_URL=(\S+)/.exec(line)![1];
  const token = /ANTHROPIC_API_KEY=(\S+)/.exec(line)![1];
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  // The test process is the agent: the shown base URL and token, Claude Code's headers, a streamed request.
  const res = await fetch(`${baseUrl}/v1/messages?beta=true`, {
    method: 'POST',
    headers: {
      'x-api-key': token,
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'claude-code-20250219',
      'user-agent': 'claude-cli/2.1.197 (external, cli)',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      model: 'claude-sim-sonnet',
      max_tokens: 128,
      stream: true,
      messages: [{ role: 'user', content: 'Say hello.' }],
    }),
  });
  expect(res.status).toBe(200);
  const streamed = await res.text();
  expect(streamed).toContain('event: message_stop');

  const turns = session.getByRole('table', { name: 'Agent turns' });
  await expect(turns).toContainText('POST /v1/messages?beta=true');
  await expect(turns).toContainText('complete');
  await session.getByRole('button', { name: 'Open turn 1' }).click();
  await expect(session.getByRole('status', { name: 'Stream status' })).toContainText('complete');

  await app.getByRole('tab', { name: 'History' }).click();
  // A connected session's requests are the Agents source's, under one row for the session.
  await app.getByRole('combobox', { name: 'Source' }).selectOption('Agents');
  const runs = app.getByRole('list', { name: 'Runs' });
  await expect(runs.getByRole('button')).toHaveCount(1);
  await expect(runs.getByRole('button').first()).toContainText('Agents · connected session · 1 request');
  await runs.getByRole('button').first().click();
  await expect(runs.getByRole('button').nth(1)).toContainText('agent');

  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: 'Disconnect' }).click();
  await expect(app.getByRole('button', { name: 'Connect an agent' })).toBeVisible();
  await expect(fetch(`${baseUrl}/`, { method: 'HEAD' })).rejects.toThrow();
});

test('Save as replay: a Codex session recorded through the endpoint is checked on another model', async ({ app }) => {
  test.setTimeout(90_000);
  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: 'Connect an agent' }).click();
  const session = app.getByRole('region', { name: 'Agent session' });
  const line = await session.getByLabel('Chat-completions agent', { exact: true }).innerText();
  const baseUrl = /OPENAI_BASE_URL=(\S+)\/v1/.exec(line)![1];
  const token = /OPENAI_API_KEY=(\S+)/.exec(line)![1];

  // The test process is Codex: its two captured turns, as it sent them, over HTTP with the local token.
  const capture = JSON.parse(readFileSync('electron/core/agents/captures/codex-unknown-id.json', 'utf8')) as {
    requests: { path: string; headers: Record<string, string>; body: unknown }[];
  };
  const ids = new Map<string, string>();
  for (const turn of capture.requests) {
    const body = JSON.stringify(turn.body)
      .replaceAll('<model>', 'gpt-sim-o3')
      .replaceAll('<cwd>', '/home/user/project')
      .replace(/<uuid-\d+>/g, (p) => ids.get(p) ?? (ids.set(p, crypto.randomUUID()), ids.get(p)!));
    const headers = Object.fromEntries(
      Object.entries(turn.headers)
        .filter(([k]) => !['authorization', 'accept-encoding'].includes(k))
        .map(([k, v]) => [k, v.replace(/<uuid-\d+>/g, (p) => ids.get(p) ?? p)]),
    );
    const res = await fetch(`${baseUrl}${turn.path}`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
    expect(res.status).toBe(200);
    await res.text();
  }
  const turns = session.getByRole('table', { name: 'Agent turns' });
  await expect(turns.getByRole('button', { name: 'Open turn 2' })).toBeVisible();

  await session.getByRole('textbox', { name: 'Replay name' }).fill('Codex through the endpoint');
  await session.getByRole('button', { name: 'Save as replay' }).click();
  await expect(session.getByRole('status')).toContainText('Saved as “Codex through the endpoint”');

  await app
    .getByRole('combobox', { name: 'Agent' })
    .selectOption({ label: 'Codex through the endpoint (saved, codex_exec/0.171.0)' });
  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('gpt-sim-4o');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  const verdict = app.getByRole('region', { name: 'Agent verdict' });
  await expect(verdict).toContainText(/^ready — all \d+ steps passed/, { timeout: 45_000 });
  await expect(verdict).toContainText('replaying the saved session “Codex through the endpoint” (codex_exec/0.171.0');
});

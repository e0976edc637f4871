/**
 * Gateway Markdown in the window (docs/security.md §13): text nested 1,500 deep shows as text and the window
 * keeps working, live and opened from History; a link opens beside the app, never in its place; and the Demo
 * gateway's code and tables render highlighted and ruled.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { openTab, output, pickModel, status } from './helpers';
import type { Page } from '@playwright/test';

/** A gateway whose every Messages reply streams `reply`, in small deltas. */
async function markdownGateway(reply: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"object":"list","data":[{"id":"md-model","object":"model","owned_by":"test"}]}');
      }
      const e = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      let body =
        e('message_start', {
          message: { id: 'msg_md', type: 'message', role: 'assistant', model: 'md-model', content: [], usage: {} },
        }) + e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      for (let i = 0; i < reply.length; i += 200)
        body += e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.slice(i, i + 200) } });
      body +=
        e('content_block_stop', { index: 0 }) +
        e('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } }) +
        e('message_stop', {});
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function useGateway(app: Page, url: string): Promise<void> {
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Markdown');
  await dialog.getByLabel('Base URL').fill(url);
  await dialog.getByLabel('API key').fill('sk-markdown-test-0000');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await app.getByRole('combobox', { name: 'Profile', exact: true }).selectOption({ label: 'Markdown' });
  await expect(app.getByLabel('Models fetched')).toContainText('1 model');
  await pickModel(app, 'md-model');
}

test('a reply nested 1,500 deep shows as text, the window keeps working, and History opens it', async ({ app }) => {
  const gateway = await markdownGateway('- '.repeat(1500) + 'x');
  try {
    await useGateway(app, gateway.url);
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    await expect(output(app).getByRole('note')).toHaveText('Shown as text: nested 1,500 deep');
    await expect(output(app)).toContainText('- - - - x');
    // The rest of the window answers: tabs, panes, another composer.
    await app.getByRole('tab', { name: 'Timeline' }).click();
    await app.getByRole('tab', { name: /^Events/ }).click();
    await expect(app.getByRole('region', { name: 'Events' })).toContainText('message_stop');
    await openTab(app, 'Chat Completions');
    await openTab(app, 'Messages');

    await app.getByRole('tab', { name: 'History' }).click();
    const runs = app.getByRole('list', { name: 'Runs' });
    await runs.getByRole('button').first().click();
    await expect(output(app).getByRole('note')).toHaveText('Shown as text: nested 1,500 deep');
    await expect(output(app)).toContainText('- - - - x');
    await expect(app.getByRole('button', { name: 'Step through' })).toBeEnabled();
  } finally {
    await gateway.close();
  }
});

test('a click on a link in the output opens it beside the app, never in its place', async ({ app }) => {
  const gateway = await markdownGateway('Read [the gateway docs](http://127.0.0.1:9/docs) first.');
  try {
    await useGateway(app, gateway.url);
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    const appUrl = app.url();
    const opened = app.context().waitForEvent('page');
    await output(app).getByRole('link', { name: 'the gateway docs' }).click();
    const tab = await opened;
    expect(app.url()).toBe(appUrl);
    await expect(output(app)).toContainText('Read the gateway docs first.');
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible();
    // noopener: the new tab cannot reach back into the app's window.
    expect(await tab.evaluate(() => window.opener === null)).toBe(true);
    await tab.close();
  } finally {
    await gateway.close();
  }
});

test('a Demo reply asked for code and a table shows highlighted code and a ruled table', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Show me some code and a table, please.');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const code = output(app).locator('pre code[class*="language-"]');
  await expect(code).toBeVisible();
  await expect(code.locator('[class^="hljs-"]').first()).toBeVisible();
  await expect(output(app).getByRole('button', { name: 'Copy code' })).toBeVisible();
  const table = output(app).getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Endpoint' })).toBeVisible();
  await expect(table.getByRole('cell', { name: '/v1/chat/completions' })).toBeVisible();
  const cell = await table.getByRole('cell', { name: 'Messages', exact: true }).evaluate((td) => {
    const s = getComputedStyle(td);
    return { border: s.borderTopStyle, width: s.borderTopWidth, padding: s.paddingLeft };
  });
  expect(cell.border).toBe('solid');
  expect(parseFloat(cell.width)).toBeGreaterThan(0);
  expect(parseFloat(cell.padding)).toBeGreaterThan(0);
  const inline = await table
    .locator('code')
    .first()
    .evaluate((c) => getComputedStyle(c).backgroundColor);
  expect(inline).not.toBe('rgba(0, 0, 0, 0)');
});

/**
 * Part of the renderer bench: replies a hostile gateway can send (docs/security.md §13), streamed into the real
 * window, and the main thread's blocked time per 10 KB of reply, next to ordinary Markdown of the same size.
 * Budget: no reply blocks the window more than 100 ms per 10 KB.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';

const normal = Array.from(
  { length: 120 },
  (_, i) => `Para ${i} has **bold**, _italics_, \`code\` and [a link](https://x.example/${i}).\n\n- one\n- two`,
).join('\n\n');

/** The prompt names the reply. */
export const MARKDOWN_CASES: Record<string, string> = {
  'ordinary Markdown': normal,
  'list nested 1,500 deep': '- '.repeat(1500) + 'x',
  'quote nested 7,980 deep': '>'.repeat(7980),
  'table of 1,000 columns': '|' + 'a|'.repeat(1000) + '\n|' + '-|'.repeat(1000) + '\n' + 'x\n'.repeat(1992),
  'emphasis nested 2,000 deep': '*_'.repeat(1000) + 'a' + '_*'.repeat(1000),
  'images nested 1,000 deep': '!['.repeat(1000) + 'a' + '](u)'.repeat(1000),
  'five wide tables': Array(5)
    .fill('|' + 'a|'.repeat(1000) + '\n|' + '-|'.repeat(1000) + '\n' + 'x\n'.repeat(1992))
    .join('\n\n'),
};

/** `run` names the answering model, so the window tells one run's verdict from the last one's. */
function sse(reply: string, run: number): string {
  const e = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let body =
    e('message_start', {
      message: { id: 'msg_b', type: 'message', role: 'assistant', model: `md-bench-${run}`, content: [], usage: {} },
    }) + e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (let i = 0; i < reply.length; i += 400)
    body += e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.slice(i, i + 400) } });
  return (
    body +
    e('content_block_stop', { index: 0 }) +
    e('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }) +
    e('message_stop', {})
  );
}

/** A gateway that streams the case its prompt names. */
export async function markdownGateway(): Promise<{ url: string; close(): Promise<void> }> {
  let runs = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString('utf8')));
    req.on('end', () => {
      const json = (body: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (req.url?.startsWith('/v1/models'))
        return json('{"object":"list","data":[{"id":"md-bench","object":"model","owned_by":"bench"}]}');
      if (req.url?.startsWith('/v1/messages/count_tokens')) return json('{"input_tokens":1}');
      // The case named last: earlier turns of the conversation name earlier cases.
      const names = Object.keys(MARKDOWN_CASES);
      const asked = names.reduce((a, b) => (text.lastIndexOf(b) > text.lastIndexOf(a) ? b : a), names[0]);
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sse(MARKDOWN_CASES[asked], ++runs));
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

async function useGateway(page: Page, url: string): Promise<void> {
  await page.getByRole('button', { name: 'Connections…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Markdown bench');
  await dialog.getByLabel('Base URL').fill(url);
  await dialog.getByLabel('API key').fill('sk-markdown-bench-0000');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Markdown bench' });
  const picker = page.getByRole('combobox', { name: 'Model' });
  await picker.click();
  await picker.fill('md-bench');
  await picker.press('Enter');
}

/**
 * Each case: the sum of long tasks (> 50 ms, the main thread blocked) from Send until the run is complete and
 * painted, per 10 KB of reply. Returns the lines to print and the cases over budget.
 */
export async function measureMarkdown(page: Page): Promise<{ lines: string[]; over: string[] }> {
  const gateway = await markdownGateway();
  const lines: string[] = [];
  const over: string[] = [];
  try {
    await useGateway(page, gateway.url);
    let run = 0;
    for (const [name, reply] of Object.entries(MARKDOWN_CASES)) {
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill(`Send the ${name}.`);
      await page.evaluate(`(() => {
        window.__mdLong = [];
        window.__mdObserver?.disconnect();
        window.__mdObserver = new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__mdLong.push(e.duration)));
        window.__mdObserver.observe({ type: 'longtask', buffered: false });
      })()`);
      await page.getByRole('button', { name: 'Send' }).click();
      run++;
      // Polled from here (a string, as the page's CSP allows no eval of its own).
      const done = `(() => {
        const status = document.querySelector('[aria-label="Stream status"]')?.textContent ?? '';
        return status.includes('complete') && [...document.querySelectorAll('dd')].some((d) => d.textContent === 'md-bench-${run}');
      })()`;
      for (let waited = 0; !(await page.evaluate(done)); waited += 100) {
        if (waited > 20_000) throw new Error(`The ${name} did not complete in 2 minutes.`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Two frames after the verdict: whatever the last batch made is laid out and painted.
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      await page.waitForTimeout(200);
      const long = (await page.evaluate('window.__mdLong')) as number[];
      const blocked = long.reduce((a, b) => a + b, 0);
      const per10k = blocked / (reply.length / 10_240);
      lines.push(
        `  ${name} (${(reply.length / 1024).toFixed(1)} KB): blocked ${Math.round(blocked)} ms, ${per10k.toFixed(0)} ms per 10 KB, longest task ${Math.round(Math.max(0, ...long))} ms`,
      );
      if (per10k > 100) over.push(`${name}: ${per10k.toFixed(0)} ms per 10 KB > 100`);
    }
  } finally {
    await gateway.close();
  }
  return { lines, over };
}

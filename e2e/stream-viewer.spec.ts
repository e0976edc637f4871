import { expect, test } from './fixtures';
import { PNG } from 'pngjs';
import { openTab, output, pickModel, status, appTab } from './helpers';

const TABS = ['Messages', 'Chat Completions', 'Responses'] as const;

for (const tab of TABS) {
  test(`${tab}: a streamed reply appears word by word and ends "complete" with metrics`, async ({ app }) => {
    await openTab(app, tab);
    await pickModel(app, 'claude-sim-sonnet');
    // Every length the reply had on screen, from Send to the end: a reply that grows shows several, one that
    // lands whole shows one. Recorded in the page, so a slow test machine cannot miss the growth.
    await app.evaluate(() => {
      const seen: number[] = [];
      Object.assign(window, { seenLengths: seen });
      new MutationObserver(() => {
        const region = document.querySelector('[role="region"][aria-label="Output"]')?.cloneNode(true) as Element;
        region?.querySelectorAll('button, .stop-reason').forEach((e) => e.remove());
        const text = region?.textContent ?? '';
        if (text.length > 0 && seen.at(-1) !== text.length) seen.push(text.length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('streaming');
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    const lengths = await app.evaluate(() => (window as unknown as { seenLengths: number[] }).seenLengths);
    expect(new Set(lengths).size, 'the reply grew on screen while it streamed').toBeGreaterThan(3);
    const final = await output(app).innerText();
    expect(final).toContain('Claude Sim Sonnet');
    const metrics = app.getByLabel('Metrics');
    await expect(metrics).toContainText('200');
    await expect(metrics).toContainText(/TTFT\s*\d+/);
    await expect(app.getByLabel('Usage', { exact: true })).toContainText(/output\s*\d+/);
    await expect(app.getByRole('region', { name: 'Events' })).toContainText(
      tab === 'Messages' ? 'message_stop' : tab === 'Chat Completions' ? '[DONE]' : 'response.completed',
    );
  });
}

test('Stop mid-stream ends "cancelled" and keeps the partial text', async ({ app }) => {
  await pickModel(app, 'sim-fault-slow');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(output(app)).toContainText('this is', { timeout: 10_000 });
  await app.getByRole('button', { name: 'Stop' }).click();
  await expect(status(app)).toContainText('cancelled');
  await expect(output(app)).toContainText('this is');
  const words = (await output(app).innerText()).split(/\s+/).length;
  expect(words).toBeGreaterThan(3);
  expect(words).toBeLessThan(40);
});

test('a cut stream is "truncated", says which terminal event is missing, and keeps the partial text', async ({
  app,
}) => {
  await pickModel(app, 'sim-fault-cut');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('truncated', { timeout: 15_000 });
  await expect(status(app)).toContainText('message_stop');
  await expect(output(app)).toContainText('this is Fault');
});

test('a JSON body cut short is "truncated" too, and keeps the reply as far as it came', async ({ app }) => {
  await pickModel(app, 'sim-fault-cut');
  await app.getByLabel('Stream', { exact: true }).uncheck();
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('truncated', { timeout: 15_000 });
  await expect(status(app)).toContainText('The connection closed before the body was complete');
  await expect(output(app)).toContainText('this is Fault: stream cut mid-way');
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expect(app.getByRole('region', { name: 'Response body' })).toContainText('"type":"message"');
});

test('an error event inside the stream is "error-event" with its type', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'sim-fault-midstream-error');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('error-event', { timeout: 15_000 });
  await expect(app.getByRole('alert', { name: 'Error' })).toContainText('server_error');
});

test('a 429 shows status, message and a retry-after countdown', async ({ app }) => {
  await openTab(app, 'Responses');
  await pickModel(app, 'sim-fault-429');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('http-error');
  const panel = app.getByRole('alert', { name: 'Error' });
  await expect(panel).toContainText('HTTP 429');
  await expect(panel).toContainText('Rate limit reached');
  await expect(panel.getByLabel('Retry after')).toContainText(/retry in (2\d|30) s/);
  // The button says what a click does: it sends the same request again at once; on its own only when switched on.
  await expect(panel.getByRole('button', { name: /Retry in/ })).toHaveCount(0);
  const retry = panel.getByRole('button', { name: 'Retry now' });
  await expect(retry).toBeVisible();
  await expect(panel.getByRole('checkbox', { name: 'Retry automatically when the wait is over' })).not.toBeChecked();
  await retry.click();
  await expect(status(app)).toContainText('http-error');
  await app.getByRole('tab', { name: 'History' }).click();
  await expect(app.getByRole('list', { name: 'Runs' }).getByRole('listitem')).toHaveCount(2);
});

test('an HTML 502 page is shown as text, never rendered', async ({ app }) => {
  await pickModel(app, 'sim-fault-html-502');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('http-error');
  const panel = app.getByRole('alert', { name: 'Error' });
  await expect(panel).toContainText('<center><h1>502 Bad Gateway</h1></center>');
  await expect(app.locator('.error-panel h1')).toHaveCount(0);
});

const TOOLS = {
  Messages: [
    {
      name: 'get_weather',
      description: 'Weather by city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  'Chat Completions': [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
  Responses: [
    {
      type: 'function',
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

for (const tab of TABS) {
  test(`${tab}: a tool call round trip by hand`, async ({ app }) => {
    await openTab(app, tab);
    await pickModel(app, 'gpt-sim-4o');
    await app.getByLabel('Tools', { exact: true }).fill(JSON.stringify(TOOLS[tab]));
    await app.getByLabel('Tool choice').selectOption(tab === 'Messages' ? 'any' : 'required');
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    await expect(output(app)).toContainText('get_weather');
    await expect(output(app)).toContainText('"city": "Paris"');
    await app.getByLabel('Result for get_weather').fill('18°C and sunny, nonce K7Q2');
    await app.getByLabel('Tool choice').selectOption('auto');
    await app.getByRole('button', { name: 'Send tool results' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    await expect(output(app)).toContainText('K7Q2');
    const conversation = app.getByRole('region', { name: 'Turns' });
    await expect(conversation).toContainText('calls get_weather');
    await expect(conversation.locator('.turn')).toHaveCount(3);
  });
}

test('a 20,000-event firehose completes and the Events list stays virtualized', async ({ app }) => {
  await pickModel(app, 'sim-firehose');
  await app.getByLabel('max_tokens').fill('20000');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 45_000 });
  await expect(app.getByLabel('Metrics')).toContainText(/events\s*20,00\d/);
  const events = app.getByRole('region', { name: 'Events' });
  const rows = await events.locator('.event-row').count();
  expect(rows).toBeGreaterThan(5);
  expect(rows).toBeLessThan(200);
  // Keys that read back from the last row stop following, and the row keeps the focus even once it is
  // scrolled far out of view; the next key still scrolls the list, and the row answers Enter.
  const lastRow = events.getByRole('button', { name: /message_stop/ });
  await lastRow.focus();
  for (let i = 0; i < 4; i++) await app.keyboard.press('PageUp');
  const scroll = events.locator('.events-scroll');
  await expect
    .poll(() => scroll.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
    .toBeGreaterThan(1000);
  await expect(lastRow).toBeFocused();
  await app.keyboard.press('End');
  await app.keyboard.press('Enter');
  await expect(lastRow).toHaveAttribute('aria-expanded', 'true');
  await app.keyboard.press('Enter');
  await expect(lastRow).toHaveAttribute('aria-expanded', 'false');
  await events.locator('.events-scroll').evaluate((el) => (el.scrollTop = 0));
  await expect(events.locator('.event-row').first()).toContainText('message_start');
  // The finished reply is all there as plain text, with markdown one click away.
  const output = app.getByRole('region', { name: 'Output' });
  const reply = (await output.locator('.text.markdown').textContent()) ?? '';
  expect(reply.split('x').length - 1).toBe(20_000);
  await output.getByRole('button', { name: 'Render as markdown (40k characters)' }).click();
  await expect(output.locator('.markdown p')).toContainText('x x x');
  await expect(output.getByRole('button', { name: /Render as markdown/ })).toHaveCount(0);
});

test('the Events list filters by type, and a row opens to its payload JSON and closes again', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const events = app.getByRole('region', { name: 'Events' });
  const filter = events.getByLabel('Filter events by type');
  await filter.selectOption({
    label: (await filter.locator('option', { hasText: 'message_delta' }).textContent()) ?? '',
  });
  await expect(events.locator('.event-row')).toHaveCount(1);
  await expect(events).toContainText('1 shown');
  // Clearing the filter and going straight back to the top before the next frame: the browser reports the two
  // scrolls as one event, which the list has to read as the user leaving the tail.
  // Three frames later the first row is drawn, not a blank top with the tail's rows below it.
  const firstDrawn = await events.evaluate(async (el) => {
    const select = el.querySelector('select')!;
    select.value = '';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    for (let i = 0; i < 5 && el.querySelectorAll('.event-row').length < 2; i++) await Promise.resolve();
    el.querySelector('.events-scroll')!.scrollTop = 0;
    for (let f = 0; f < 3; f++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return el.querySelector('.event-row .seq')?.textContent;
  });
  expect(firstDrawn).toBe('0');
  const rows = events.locator('.event-row');
  expect(await rows.count()).toBeGreaterThan(5);

  const start = events.getByRole('button', { name: /message_start/ });
  await expect(start).toBeVisible();
  const next = events.getByRole('button', { name: /^1 content_block_start/ });
  const before = (await next.boundingBox())!.y;
  await start.click();
  await expect(start).toHaveAttribute('aria-expanded', 'true');
  const payload = events.locator('.event-payload pre');
  await expect(payload).toContainText('"type": "message_start"');
  await expect(payload).toContainText('"usage": {');
  // The rows below make room for the payload instead of being drawn over it.
  await expect.poll(async () => (await next.boundingBox())!.y).toBeGreaterThan(before + 40);
  // A second open row leaves the first one's size alone: nothing is drawn over its payload.
  await next.click();
  await expect(events.locator('.event-payload')).toHaveCount(2);
  const firstPayload = (await payload.first().boundingBox())!;
  await expect
    .poll(async () => (await next.boundingBox())!.y)
    .toBeGreaterThanOrEqual(firstPayload.y + firstPayload.height - 1);
  await next.click();
  await expect(events.locator('.event-payload')).toHaveCount(1);
  await start.click();
  await expect(start).toHaveAttribute('aria-expanded', 'false');
  await expect(payload).toHaveCount(0);
  await expect.poll(async () => (await next.boundingBox())!.y).toBeLessThan(before + 2);
});

test('while a firehose streams, the Events list shows the newest events, frame after frame', async ({ app }) => {
  await pickModel(app, 'sim-firehose');
  await app.getByLabel('max_tokens').fill('100000');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('streaming');
  // Sampled in the page after each frame is painted while the run is live: the rows a person can see, and how
  // far the newest of them is behind the count; the row elements drawn over the whole run; and the type filter.
  type Sample = {
    shown: number;
    lastRow: number;
    rows: number;
    drawn: number;
    elements: number;
    deltas: string;
    counted: number;
  };
  const samples = await app.getByRole('region', { name: 'Events' }).evaluate(
    (el) =>
      new Promise<Sample[]>((resolve) => {
        const out: Sample[] = [];
        const elements = new Set<Element>();
        const scroller = el.querySelector('.events-scroll')!.getBoundingClientRect();
        const sample = () => {
          const live = document.querySelector('[aria-label="Stream status"]')?.textContent?.includes('streaming');
          if (!live) return resolve(out);
          const drawn = [...el.querySelectorAll('.event-row')];
          for (const row of drawn) elements.add(row);
          const options = [...el.querySelectorAll('option')].slice(1).map((o) => o.textContent ?? '');
          const deltas = options.find((o) => o.startsWith('content_block_delta')) ?? '';
          const counted = options.reduce(
            (n, o) => n + Number(/\(([\d,]+)\)$/.exec(o)?.[1].replace(/,/g, '') ?? NaN),
            0,
          );
          const seqs = [...el.querySelectorAll('.event-row')]
            .filter((row) => {
              const r = row.getBoundingClientRect();
              return r.bottom > scroller.top && r.top < scroller.bottom;
            })
            .map((row) => Number(row.querySelector('.seq')?.textContent));
          const shown = Number(el.querySelector('.events-toolbar .muted')?.textContent?.replace(/[^0-9]/g, '') ?? 0);
          if (shown > 2000)
            out.push({
              shown,
              lastRow: Math.max(-1, ...seqs),
              rows: seqs.length,
              drawn: drawn.length,
              elements: elements.size,
              deltas,
              counted,
            });
          requestAnimationFrame(() => setTimeout(sample, 0));
        };
        requestAnimationFrame(() => setTimeout(sample, 0));
      }),
  );
  // A fast machine applies the burst in a handful of frames; the regression this guards against blanked every one.
  expect(samples.length).toBeGreaterThan(3);
  for (const s of samples) {
    expect(s.rows).toBeGreaterThan(5);
    expect(s.lastRow).toBe(s.shown - 1);
    // The type filter counts as events arrive: each type with its number, adding up to all shown.
    expect(s.deltas).toMatch(/^content_block_delta \([\d,]+\)$/);
    expect(s.counted).toBe(s.shown);
  }
  // Following the tail, each frame writes new events into the rows already drawn: the elements seen over the
  // whole run are about one view's worth, where mounting new rows for every batch would be one view per frame.
  const last = samples[samples.length - 1];
  expect(last.elements).toBeLessThanOrEqual(Math.max(...samples.map((s) => s.drawn)) + 5);
  expect(last.elements).toBeLessThan(last.rows * 4);
  await expect(status(app)).toContainText('complete', { timeout: 60_000 });
});

test('a row focused while a firehose streams keeps the focus when a key stops following, and when the run ends', async ({
  app,
}) => {
  await pickModel(app, 'sim-firehose');
  await app.getByLabel('max_tokens').fill('100000');
  await app.getByRole('button', { name: 'Send' }).click();
  const events = app.getByRole('region', { name: 'Events' });
  await expect
    .poll(async () =>
      Number(((await events.locator('.events-toolbar .muted').textContent()) ?? '').replace(/[^0-9]/g, '')),
    )
    .toBeGreaterThan(3000);
  await expect(status(app)).toContainText('streaming');
  await events.locator('.event-line').last().focus();
  await app.keyboard.press('ArrowUp');
  const focusedRow = () =>
    app.evaluate(
      () =>
        document.activeElement?.closest('[aria-label="Events"]') !== null &&
        document.activeElement?.classList.contains('event-line'),
    );
  expect(await focusedRow()).toBe(true);
  await expect(status(app)).toContainText('complete', { timeout: 60_000 });
  expect(await focusedRow()).toBe(true);
  await app.keyboard.press('Enter');
  await expect(events.locator('.event-payload')).toHaveCount(1);
});

test('the timeline reads a relay that buffers as buffered, and a stream spread over time as streamed', async ({
  app,
}) => {
  await pickModel(app, 'sim-fault-buffered');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await app.getByRole('tab', { name: 'Timeline' }).click();
  await expect(app.getByRole('img', { name: /Event arrival timeline/ })).toBeVisible();
  const reading = app.getByLabel('Arrival reading');
  await expect(reading).toContainText('Buffered: all');
  await expect(reading).toContainText(/after 1,\d{3} ms of silence/);
  // A rate over a burst of a few milliseconds would read thousands of tokens a second: it is not shown as one.
  await expect(app.getByLabel('Metrics')).toContainText('tok/s— (one burst)');

  await pickModel(app, 'sim-fault-slow');
  await app.getByLabel('max_tokens').fill('12');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('streaming');
  await expect(status(app)).toContainText('complete', { timeout: 30_000 });
  await app.getByRole('tab', { name: 'Timeline' }).click();
  await expect(reading).toContainText('Streamed:');
  await expect(reading).toContainText(/median gap [34]\d\d ms/);
  await expect(app.getByLabel('Metrics')).toContainText(/tok\/s\s*\d/);
});

test('the ledger shows the request as sent with the key redacted, and the response status and its request id and rate limits', async ({
  app,
  received,
}) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('streaming');
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await app.getByRole('tab', { name: 'Ledger' }).click();
  const ledger = app.getByRole('region', { name: 'Ledger' });
  await expect(ledger).toContainText(/POST\s+http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
  await expect(ledger).toContainText(/body \d+ B/);
  const sent = ledger.getByRole('table', { name: 'Request headers' });
  await expect(sent.getByRole('row', { name: /^authorization/ })).toContainText('[redacted');
  await expect(sent).not.toContainText('demo-key');
  await expect(ledger.locator('pre.body')).toContainText('"model": "gpt-sim-4o"');
  await expect(ledger.locator('pre.body')).toContainText('"stream": true');
  await expect(ledger).toContainText('200 OK');
  const got = ledger.getByRole('table', { name: 'Response headers' });
  await expect(got.getByRole('row', { name: /^x-request-id/ })).toContainText(/\S{6,}/);
  await expect(got.getByRole('row', { name: /^x-ratelimit-remaining-requests/ })).toContainText('999');
  expect(received.join('\n')).not.toContain('demo-key');
});

test('copy one event, or all of them, as SSE text that replays as sent', async ({ app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await pickModel(app, 'claude-sim-haiku');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('streaming');
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const events = app.getByRole('region', { name: 'Events' });
  await events.getByRole('button', { name: 'Copy all as SSE' }).click();
  await expect(events.getByRole('button', { name: 'Copied' }), 'a copy says so').toBeVisible();
  const all = await app.evaluate(() => navigator.clipboard.readText());
  expect(all.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
  expect(all.trimEnd().endsWith('event: message_stop\ndata: {"type":"message_stop"}')).toBe(true);
  const total = Number((await app.getByRole('tab', { name: /^Events \(/ }).textContent())!.replace(/[^0-9]/g, ''));
  expect(all.split('\n\n').filter(Boolean)).toHaveLength(total);

  await events.locator('.events-scroll').evaluate((el) => (el.scrollTop = 0));
  await events.getByRole('button', { name: /^1 content_block_start/ }).click();
  await events.locator('.event-payload').getByRole('button', { name: 'Copy' }).click();
  await expect(events.locator('.event-payload').getByRole('button', { name: 'Copied' })).toBeVisible();
  const one = await app.evaluate(() => navigator.clipboard.readText());
  expect(one).toMatch(/^event: content_block_start\ndata: \{"type":"content_block_start","index":0,.*\}\n\n$/);
});

test('a small scroll up while a stream is live stops following, and scrolling back to the bottom resumes it', async ({
  app,
}) => {
  // The slow model sends a delta every 400 ms: the run is surely still live through every step below.
  await app.setViewportSize({ width: 1440, height: 700 });
  await pickModel(app, 'sim-fault-slow');
  await app.getByRole('button', { name: 'Send' }).click();
  const events = app.getByRole('region', { name: 'Events' });
  const scroller = events.locator('.events-scroll');
  const shown = async () =>
    Number((await events.locator('.events-toolbar .muted').textContent())!.replace(/[^0-9]/g, ''));
  const visible = () =>
    scroller.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const seqs = [...el.querySelectorAll('.event-row')]
        .filter((r) => r.getBoundingClientRect().bottom > box.top + 1 && r.getBoundingClientRect().top < box.bottom - 1)
        .map((r) => Number(r.querySelector('.seq')?.textContent));
      return { first: Math.min(...seqs), last: Math.max(...seqs), scrollable: el.scrollHeight > el.clientHeight + 60 };
    });
  await expect.poll(async () => (await visible()).scrollable, { timeout: 30_000 }).toBe(true);
  await expect(status(app)).toContainText('streaming');

  await scroller.hover();
  await app.mouse.wheel(0, -30);
  await app.waitForTimeout(200);
  const held = (await visible()).first;
  const before = await shown();
  await expect.poll(shown, { timeout: 10_000 }).toBeGreaterThan(before + 1);
  expect((await visible()).first).toBe(held);
  expect((await visible()).last).toBeLessThan((await shown()) - 1);

  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const back = await shown();
  await expect.poll(shown, { timeout: 10_000 }).toBeGreaterThan(back + 1);
  await expect.poll(async () => (await visible()).last === (await shown()) - 1).toBe(true);
  await expect(status(app)).toContainText('streaming');
  await app.getByRole('button', { name: 'Stop' }).click();
  await expect(status(app)).toContainText('cancelled');
});

test('a non-streamed reply: the Ledger shows the body the gateway returned, as sent', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  await app.getByRole('checkbox', { name: 'Stream', exact: true }).uncheck();
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(app.getByRole('region', { name: 'Events' })).toContainText(
    'No events arrived: the response body, if there was one, is in the Ledger.',
  );
  await app.getByRole('tab', { name: 'Ledger' }).click();
  const body = app.getByRole('region', { name: 'Response body' });
  await expect(body).toContainText('"object": "chat.completion"');
  await expect(body).toContainText('"finish_reason"');
  await expect(body).toContainText('JSON, re-indented');
});

test('at 1280×720, a Ledger holding an image stays inside the window, its base64 shortened', async ({ app }) => {
  await app.setViewportSize({ width: 1280, height: 720 });
  await pickModel(app, 'claude-sim-sonnet');
  // Noise does not compress: a real PNG of about 12 KB.
  const png = new PNG({ width: 56, height: 56 });
  for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 7919) % 251;
  const buffer = PNG.sync.write(png);
  const attach = app.locator('input[type=file][accept^="image/"]');
  await attach.setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer });
  await app.getByRole('textbox', { name: 'Message' }).fill('What is this?');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).not.toContainText('streaming', { timeout: 15_000 });
  await app.getByRole('tab', { name: 'Ledger' }).click();
  const body = app.getByLabel('Request body');
  await expect(body).toContainText(/"iVBORw0KGgo\S*… \d+\.\d KB base64"/);
  const widths = () => app.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(await widths()).toEqual([1280, 1280]);
  await expect(app.getByRole('combobox', { name: 'Profile', exact: true })).toBeInViewport();

  // In full, the base64 wraps inside the Ledger instead of widening the page.
  await app.getByRole('button', { name: 'Show in full' }).click();
  await expect(body).toContainText(buffer.toString('base64').slice(0, 400));
  expect(await widths()).toEqual([1280, 1280]);

  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expect(app.getByLabel('Request body')).toContainText('KB base64');
  await app.getByRole('button', { name: 'Show in full' }).click();
  expect(await widths()).toEqual([1280, 1280]);
});

test('at 1280×720 no tab is wider than the window', async ({ app }) => {
  await app.setViewportSize({ width: 1280, height: 720 });
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const tabs = ['Messages', 'Chat Completions', 'Responses', 'Compare', 'History', 'Presets', 'Capabilities'];
  for (const name of tabs) {
    await appTab(app, name).click();
    await expect(app.getByRole('tabpanel').first()).toBeVisible();
    const width = await app.evaluate(() => document.documentElement.scrollWidth);
    expect({ tab: name, width }).toEqual({ tab: name, width: 1280 });
  }
});

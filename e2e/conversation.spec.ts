import { PNG } from 'pngjs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openTab, output, pickModel, status } from './helpers';

type Body = Record<string, unknown>;
const TABS = ['Messages', 'Chat Completions', 'Responses'] as const;

const conversation = (page: Page) => page.getByRole('region', { name: 'Conversation' });
const messages = (page: Page) => conversation(page).getByRole('article');

/** The request body as the Ledger shows it was sent, for the run on screen. */
async function sentBody(page: Page): Promise<Body> {
  await page.getByRole('tab', { name: 'Ledger' }).click();
  const text = await page.getByRole('region', { name: 'Ledger' }).locator('pre.body').innerText();
  await page.getByRole('tab', { name: /^Events/ }).click();
  return JSON.parse(text) as Body;
}

/** The conversation turns of a sent body, as each protocol keeps them (Chat's system turn is not one). */
const turnsOf = (body: Body): Body[] => ((body.messages ?? body.input) as Body[]).filter((t) => t.role !== 'system');

/** Every text a turn holds, whatever its shape. */
function textsOf(turn: Body): string[] {
  const c = turn.content ?? turn.output;
  if (typeof c === 'string') return [c];
  return Array.isArray(c) ? c.flatMap((p: Body) => (typeof p.text === 'string' ? [p.text] : [])) : [];
}

/** Each message of the region, in order, holds the texts of the turns that were sent: what went out is what is shown. */
async function expectShown(list: Locator, sent: Body[]) {
  const shown = await list.allInnerTexts();
  let at = 0;
  for (const turn of sent) {
    for (const text of textsOf(turn)) {
      while (at < shown.length && !shown[at].includes(text)) at++;
      expect(at, `"${text}" shown in order`).toBeLessThan(shown.length);
    }
  }
}

async function sendAndWait(page: Page) {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });
}

for (const tab of TABS) {
  test(`${tab}: send, regenerate ("2 of 2"), go on, then edit an earlier message and send what is shown`, async ({
    app,
  }) => {
    await openTab(app, tab);
    await pickModel(app, 'gpt-sim-4o');
    await sendAndWait(app);
    // The reply is in the conversation, after the question, as the viewer shows it.
    // The viewer may still show the reply as the Markdown source it is (its renderer loads lazily): compare words.
    const replyText = (await output(app).locator('.text').first().innerText()).replace(/[*_`#]/g, '').slice(0, 30);
    await expect(messages(app)).toHaveCount(2);
    await expect(messages(app).nth(1)).toContainText(replyText);

    await conversation(app).getByRole('button', { name: 'Regenerate message 2' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
    const replies = conversation(app).getByRole('group', { name: 'Replies' });
    await expect(replies).toContainText('2 of 2');
    await replies.getByRole('button', { name: 'Previous reply' }).click();
    await expect(replies).toContainText('1 of 2');
    await replies.getByRole('button', { name: 'Next reply' }).click();
    await expect(replies).toContainText('2 of 2');

    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('And in one word?');
    await sendAndWait(app);
    await expect(messages(app)).toHaveCount(4);
    let sent = await sentBody(app);
    expect(turnsOf(sent).map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    await expectShown(messages(app), turnsOf(sent));

    await conversation(app).getByRole('button', { name: 'Edit message 1' }).click();
    await conversation(app).getByRole('textbox', { name: 'Message 1 text' }).fill('Explain WebSockets in one line.');
    await conversation(app).getByRole('button', { name: 'Save' }).click();
    await expect(messages(app)).toHaveCount(1);
    await expect(app.getByRole('status', { name: 'Last change' })).toContainText('Edited message 1');
    await sendAndWait(app);
    sent = await sentBody(app);
    expect(turnsOf(sent)).toHaveLength(1);
    expect(textsOf(turnsOf(sent)[0])).toEqual(['Explain WebSockets in one line.']);
    await expect(messages(app)).toHaveCount(2);
    await expectShown(messages(app), turnsOf(sent));
  });
}

/** A small picture a browser can decode. */
function png(): Buffer {
  const img = new PNG({ width: 4, height: 4 });
  img.data.fill(200);
  return PNG.sync.write(img);
}

test('Messages: a tool call round with an image: every turn shown, the call and its result, and sent as shown', async ({
  app,
}) => {
  await pickModel(app, 'gpt-sim-4o');
  await app.locator('[data-composer="messages"]').getByLabel('Attach image').setInputFiles({
    name: 'dot.png',
    mimeType: 'image/png',
    buffer: png(),
  });
  await expect(conversation(app).getByRole('img', { name: 'Message 1 image 1' })).toBeVisible();
  await app.getByLabel('Tools', { exact: true }).fill(
    JSON.stringify([
      {
        name: 'get_weather',
        description: 'Weather by city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ]),
  );
  await app.getByLabel('Tool choice').selectOption('any');
  await sendAndWait(app);
  await expect(messages(app).nth(1)).toContainText('get_weather');
  await app.getByLabel('Result for get_weather').fill('18°C and sunny, nonce K7Q2');
  await app.getByLabel('Tool choice').selectOption('auto');
  await app.getByRole('button', { name: 'Send tool results' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(messages(app)).toHaveCount(4);
  await expect(messages(app).nth(2)).toHaveAccessibleName('Message 3, tool results');
  await expect(messages(app).nth(2)).toContainText('K7Q2');
  const sent = await sentBody(app);
  const turns = turnsOf(sent);
  expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
  expect(turns[0].content).toContainEqual(expect.objectContaining({ type: 'image' }));
  expect(JSON.stringify(turns[1].content)).toContain('get_weather');
  expect(JSON.stringify(turns[2].content)).toContain('K7Q2');
  await expectShown(messages(app), turns);
  // Branch at the call: a new request tab holding the question and the call only; the conversation stays whole.
  await conversation(app).getByRole('button', { name: 'Branch from message 2' }).click();
  await expect(messages(app)).toHaveCount(2);
  const requests = app.getByRole('tablist', { name: 'Requests' });
  await expect(requests.getByRole('tab', { name: 'Request 1 branch' })).toHaveAttribute('aria-selected', 'true');
  await requests.getByRole('tab', { name: 'Request 1', exact: true }).click();
  await expect(messages(app)).toHaveCount(4);
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

/** The tab list "Requests" of the protocol tab on view, and one request tab in it by its exact name. */
const requests = (page: Page) => page.getByRole('tablist', { name: 'Requests' });
const request = (page: Page, name: string) => requests(page).getByRole('tab', { name, exact: true });
const message = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const names = (page: Page) => requests(page).getByRole('tab');
/** drafts.json as the core wrote it so far. */
function drafts(dataDir: string): string {
  try {
    return readFileSync(path.join(dataDir, 'drafts.json'), 'utf8');
  } catch {
    return '';
  }
}
/** A protocol's requests as drafts.json keeps them. */
type Kept = { activeId: string; requests: { id: string; draft: string }[] };

test('five requests open at once come back after a restart: names, bodies, and the one on view', async ({
  app,
  host,
  relaunch,
}) => {
  await pickModel(app, 'claude-sim-sonnet');
  await message(app).fill('first words');
  await app.getByRole('button', { name: 'New request' }).click();
  await expect(request(app, 'Request 2')).toHaveAttribute('aria-selected', 'true');
  // A new request starts from the sample on the current model, with an empty Message box.
  await expect(app.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sim-sonnet');
  await expect(message(app)).toHaveValue('');
  await message(app).fill('second words');
  for (const n of [3, 4, 5]) {
    await message(app).press('ControlOrMeta+t');
    await expect(request(app, `Request ${n}`)).toHaveAttribute('aria-selected', 'true');
    await message(app).fill(`words ${n}`);
  }
  await expect(names(app)).toHaveText(['Request 1', 'Request 2', 'Request 3', 'Request 4', 'Request 5']);
  // Each request keeps its own draft.
  await request(app, 'Request 2').click();
  await expect(message(app)).toHaveValue('second words');
  await request(app, 'Request 1').click();
  await expect(message(app)).toHaveValue('first words');
  await request(app, 'Request 3').click();
  await expect(message(app)).toHaveValue('words 3');

  await expect.poll(() => drafts(host.dataDir)).toContain('words 5');
  // The core keeps which request is on view with each one's draft.
  await expect
    .poll(() => {
      const kept = (JSON.parse(drafts(host.dataDir) || '{}') as { drafts?: Record<string, Kept> }).drafts?.messages;
      return kept?.requests.find((r) => r.id === kept.activeId)?.draft;
    })
    .toBe('words 3');
  await relaunch();
  await expect(names(app)).toHaveText(['Request 1', 'Request 2', 'Request 3', 'Request 4', 'Request 5']);
  await expect(request(app, 'Request 3')).toHaveAttribute('aria-selected', 'true');
  await expect(message(app)).toHaveValue('words 3');
  await request(app, 'Request 1').click();
  await expect(message(app)).toHaveValue('first words');
  await request(app, 'Request 5').click();
  await expect(message(app)).toHaveValue('words 5');
});

test('Ctrl+W closes the request on view, Reopen brings it back; × closes too, and the last one leaves a fresh one', async ({
  app,
}) => {
  await message(app).fill('keep me');
  await app.getByRole('button', { name: 'New request' }).click();
  await message(app).fill('second');
  await request(app, 'Request 1').click();
  await message(app).press('ControlOrMeta+w');
  await expect(names(app)).toHaveText(['Request 2']);
  await expect(message(app)).toHaveValue('second');
  const closed = app.getByRole('status', { name: 'Closed request' });
  await expect(closed).toContainText('Closed “Request 1”.');
  await closed.getByRole('button', { name: 'Reopen closed request' }).click();
  await expect(names(app)).toHaveText(['Request 1', 'Request 2']);
  await expect(request(app, 'Request 1')).toHaveAttribute('aria-selected', 'true');
  await expect(message(app)).toHaveValue('keep me');
  await expect(closed).toHaveCount(0);

  // The × of a tab (it shows under the pointer), then Ctrl+Shift+T.
  await request(app, 'Request 2').hover();
  await app.getByRole('button', { name: 'Close Request 2' }).click();
  await expect(names(app)).toHaveText(['Request 1']);
  await app.keyboard.press('ControlOrMeta+Shift+t');
  await expect(names(app)).toHaveText(['Request 1', 'Request 2']);
  await expect(message(app)).toHaveValue('second');

  // Closing every request leaves one fresh request, never an empty strip; it too can be undone.
  await message(app).press('ControlOrMeta+w');
  await message(app).press('ControlOrMeta+w');
  await expect(names(app)).toHaveText(['Request 3']);
  await expect(message(app)).toHaveValue('');
  await app.getByRole('button', { name: 'Request actions' }).click();
  await app.getByRole('menuitem', { name: 'Reopen closed request' }).click();
  await expect(names(app)).toHaveText(['Request 1', 'Request 3']);
  await expect(message(app)).toHaveValue('keep me');
});

test('rename in place (Enter saves, Escape cancels) and duplicate as "<name> copy"', async ({ app }) => {
  await message(app).fill('the weather question');
  await request(app, 'Request 1').dblclick();
  const field = app.getByRole('textbox', { name: 'Request name' });
  await field.fill('Weather');
  await field.press('Enter');
  await expect(names(app)).toHaveText(['Weather']);
  // By keyboard: F2 on the tab, and Escape leaves the name as it was.
  await request(app, 'Weather').focus();
  await app.keyboard.press('F2');
  await field.fill('Not this');
  await field.press('Escape');
  await expect(names(app)).toHaveText(['Weather']);
  await expect(request(app, 'Weather')).toBeFocused();

  await app.getByRole('button', { name: 'Request actions' }).click();
  await app.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(names(app)).toHaveText(['Weather', 'Weather copy']);
  await expect(request(app, 'Weather copy')).toHaveAttribute('aria-selected', 'true');
  await expect(message(app)).toHaveValue('the weather question');
  await message(app).fill('only in the copy');
  await request(app, 'Weather').click();
  await expect(message(app)).toHaveValue('the weather question');
});

test('a dot marks unsent changes: it shows on an edit and goes away after Send; the last run is back after a restart', async ({
  app,
  host,
  relaunch,
}) => {
  await pickModel(app, 'claude-sim-sonnet');
  const tab = request(app, 'Request 1');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(tab).not.toHaveAttribute('aria-description', /unsent/);
  await app.getByLabel('System prompt', { exact: true }).fill('Be brief.');
  await expect(tab).toHaveAttribute('aria-description', 'unsent changes');
  // Its name stays the request's name.
  await expect(tab).toHaveAccessibleName('Request 1');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(tab).not.toHaveAttribute('aria-description', /unsent/);
  // Regenerate sends the request as it is: nothing is left unsent.
  await app.getByRole('button', { name: 'Regenerate' }).click();
  await expect(app.getByText('2 of 2')).toBeVisible({ timeout: 15_000 });
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(tab).not.toHaveAttribute('aria-description', /unsent/);
  // A second request, never sent, so the restart has two viewers to tell apart.
  await app.getByRole('button', { name: 'New request' }).click();
  await expect(status(app)).toContainText('idle');
  await request(app, 'Request 1').click();
  await expect(status(app)).toContainText('complete');
  await expect.poll(() => drafts(host.dataDir)).toContain('"Request 2"');

  await relaunch();
  await expect(request(app, 'Request 1')).toHaveAttribute('aria-selected', 'true');
  // Its viewer shows its last run again, from History.
  await expect(status(app)).toContainText('complete');
  await expect(app.getByRole('region', { name: 'Output' })).toContainText('Claude Sim Sonnet answering');
  await request(app, 'Request 2').click();
  await expect(status(app)).toContainText('idle');
});

test('Bring to another protocol opens the request as a new request tab there; Branch opens one too', async ({
  app,
}) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByLabel('System prompt', { exact: true }).fill('Brought along.');
  await openTab(app, 'Chat Completions');
  await message(app).fill('chat work of my own');
  await app.getByRole('button', { name: 'Bring this request along' }).click();
  await app.getByRole('button', { name: /Use this request/ }).click();
  await expect(names(app)).toHaveText(['Request 1', 'Request 1 (Messages)']);
  await expect(request(app, 'Request 1 (Messages)')).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByLabel('System prompt', { exact: true })).toHaveValue('Brought along.');
  await request(app, 'Request 1').click();
  await expect(message(app)).toHaveValue('chat work of my own');
  await expect(app.getByLabel('System prompt', { exact: true })).toHaveValue('');

  // Branch: the conversation up to a message, in a new request tab; the request it came from is left as it was.
  await openTab(app, 'Messages');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const conversation = app.getByRole('region', { name: 'Conversation' });
  await conversation.getByRole('button', { name: 'Branch from message 1' }).click();
  await expect(names(app)).toHaveText(['Request 1', 'Request 1 branch']);
  await expect(request(app, 'Request 1 branch')).toHaveAttribute('aria-selected', 'true');
  await request(app, 'Request 1').click();
  await expect(status(app)).toContainText('complete');
});

import { expect, type Page } from '@playwright/test';

/**
 * One of the app's tabs, by the start of its name: a tab is named by all its visible text ("Messages
 * /v1/messages"), and a plain substring match of "Load" or "Messages" could also meet another tab's subtitle.
 */
export const appTab = (page: Page, name: string) =>
  page
    .getByRole('tablist', { name: 'Protocols' })
    .getByRole('tab', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`) });

export async function openTab(page: Page, name: 'Messages' | 'Chat Completions' | 'Responses'): Promise<void> {
  await appTab(page, name).click();
  await expect(appTab(page, name)).toHaveAttribute('aria-selected', 'true');
}

export async function pickModel(page: Page, id: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Model' });
  await box.click();
  await box.fill(id);
  await expect(page.getByRole('option', { name: new RegExp(`^${id}`) }).first()).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue(id);
}

export const status = (page: Page) => page.getByRole('status', { name: 'Stream status' });
export const output = (page: Page) => page.getByRole('region', { name: 'Output' });

/** Replaces the request body through the JSON editor, as a user pasting a request would. */
export async function typeJson(page: Page, body: unknown): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Request JSON' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await editor.evaluate(
    (el, text) => {
      const view = (
        el as unknown as { cmView?: { view: { dispatch: (t: unknown) => void; state: { doc: { length: number } } } } }
      ).cmView?.view;
      if (view) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    JSON.stringify(body, null, 2),
  );
}

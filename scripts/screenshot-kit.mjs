// The README screenshots' shared harness: the app in Chromium (app-kit.mjs), one page; `drive` sets the
// scene, then the page is saved to `out`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startApp } from './app-kit.mjs';

/**
 * @param {string} out
 * @param {{ width?: number, height?: number, colorScheme?: 'light' | 'dark' }} view
 * @param {(page: import('@playwright/test').Page) => Promise<void>} drive
 */
export async function shoot(out, view, drive) {
  const app = await startApp();
  try {
    const viewport = { width: view.width ?? 1440, height: view.height ?? 900 };
    const page = await app.browser.newPage({ viewport, deviceScaleFactor: 1, colorScheme: view.colorScheme ?? 'dark' });
    await page.goto(app.url);
    await drive(page);
    await page.waitForTimeout(300);
    mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out });
    console.log(`Saved ${out}`);
  } finally {
    await app.close();
  }
}

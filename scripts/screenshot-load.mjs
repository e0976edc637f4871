// Takes the README's Load tab screenshot (docs/load-screenshot.png): a load run on the Demo gateway, finished,
// with its summary. node scripts/screenshot-load.mjs [out.png]
import { shoot } from './screenshot-kit.mjs';

const out = process.argv[2] ?? 'docs/load-screenshot.png';

await shoot(out, { height: 1000, colorScheme: 'light' }, async (page) => {
  await page.getByRole('tab', { name: /^Load / }).click();
  await page.getByLabel('Model', { exact: true }).fill('claude-sim-haiku');
  await page.getByLabel('Requests', { exact: true }).fill('120');
  await page.getByLabel('Concurrency', { exact: true }).fill('16');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('status', { name: 'Load status' }).filter({ hasText: 'Finished' }).waitFor({ timeout: 120_000 });
  await page.getByRole('region', { name: 'Load summary' }).waitFor();
});

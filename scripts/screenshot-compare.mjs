// Takes the Compare screenshot (docs/compare-6.png): six columns run side by side on the Demo gateway, at
// 1440×900. node scripts/screenshot-compare.mjs [out.png] [--theme light|dark]
import { shoot } from './screenshot-kit.mjs';

const args = process.argv.slice(2);
const out = args[0] && !args[0].startsWith('--') ? args[0] : 'docs/compare-6.png';
const theme = args.includes('--theme') ? args[args.indexOf('--theme') + 1] : 'light';
const MODELS = [
  'claude-sim-sonnet',
  'claude-sim-haiku',
  'gpt-sim-4o',
  'gpt-sim-mini',
  'gpt-sim-o3',
  'claude-sim-sonnet',
];
const PROTOCOLS = ['messages', 'messages', 'chat', 'chat', 'responses', 'responses'];

await shoot(out, { colorScheme: theme }, async (page) => {
  await page.getByRole('tab', { name: /^Compare / }).click();
  await page.getByLabel('Column 1 model').waitFor();
  for (let i = 3; i <= 6; i++) await page.getByRole('button', { name: '+ Column' }).click();
  for (let i = 0; i < 6; i++) {
    await page.getByLabel(`Column ${i + 1} protocol`).selectOption(PROTOCOLS[i]);
    await page.getByLabel(`Column ${i + 1} model`).fill(MODELS[i]);
  }
  await page.getByRole('button', { name: 'Run all' }).click();
  for (let i = 1; i <= 6; i++) {
    const status = page
      .getByRole('region', { name: `Column ${i}`, exact: true })
      .getByRole('status', { name: 'Stream status' });
    await status.filter({ hasText: 'complete' }).waitFor({ timeout: 30_000 });
  }
});

// Takes the README screenshot (docs/screenshot.png) of the browser host on the Demo gateway:
// node scripts/screenshot.mjs [out.png] [--tab "Chat Completions"] [--model claude-sim-sonnet] [--no-send]
//   [--theme light|dark] [--size 1280x720]
import { shoot } from './screenshot-kit.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const out = args[0] && !args[0].startsWith('--') ? args[0] : 'docs/screenshot.png';

const [width, height] = flag('--size', '1440x900').split('x').map(Number);

await shoot(out, { width, height, colorScheme: flag('--theme', 'dark') }, async (page) => {
  // A tab is named by its label and then its path or subtitle ("Messages /v1/messages").
  await page.getByRole('tab', { name: new RegExp(`^${flag('--tab', 'Messages')} `) }).click();
  const model = flag('--model', 'claude-sim-sonnet');
  const picker = page.getByRole('combobox', { name: 'Model' });
  await picker.click();
  await picker.fill(model);
  await page
    .getByRole('option', { name: new RegExp(model) })
    .first()
    .click();
  if (!args.includes('--no-send')) {
    await page.getByRole('button', { name: 'Send' }).click();
    const done = page.getByRole('status', { name: 'Stream status' }).filter({ hasText: 'complete' });
    await done.waitFor({ timeout: 20_000 });
  }
});

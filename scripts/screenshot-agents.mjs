// Takes the README's Agents screenshot (docs/agents.png) of the browser host on the Demo gateway:
// node scripts/screenshot-agents.mjs [out.png]
import { shoot } from './screenshot-kit.mjs';

const out = process.argv[2] ?? 'docs/agents.png';

await shoot(out, {}, async (page) => {
  await page.getByRole('tab', { name: 'Agents' }).click();
  const verdict = page.getByRole('region', { name: 'Agent verdict' });
  const check = async (agent, model) => {
    await page.getByRole('combobox', { name: 'Agent' }).selectOption(agent);
    await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption(model);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await verdict.filter({ hasText: new RegExp(model) }).waitFor({ timeout: 60_000 });
  };
  await check('codex', 'gpt-sim-o3');
  await check('claude-code', 'claude-sim-sonnet');
  await check('chat-agent', 'sim-relay-chat-text-tools');
  await check('codex', 'sim-relay-ignores-cache');
  await check('codex', 'sim-relay-key-pool');
});

/**
 * Part of the renderer bench: a 200-turn conversation in the Messages composer (the form's turn boxes, the
 * Conversation region and the JSON all show it). Budget, as ratios: a keystroke in the Message box reaches the next
 * frame (p95) at most 3× as slowly as with a one-turn conversation, one in an earlier turn at most 25×.
 * Runs on its own too: `node --import tsx bench/conversation-turns.ts`.
 */
import type { Page } from '@playwright/test';

const TURNS = 200;

/** Alternating user and assistant turns of a few hundred characters, as a long hand-driven session has. */
function longConversation(): Record<string, unknown> {
  const messages = Array.from({ length: TURNS }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Turn ${i + 1}: ${'the quick brown fox jumps over the lazy dog; '.repeat(6)}`,
  }));
  return { model: 'claude-sim-sonnet', max_tokens: 256, stream: true, messages };
}

const OBSERVE = `(() => {
  window.__cvLong = [];
  window.__cvObserver?.disconnect();
  window.__cvObserver = new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__cvLong.push(e.duration)));
  window.__cvObserver.observe({ type: 'longtask', buffered: false });
})()`;
const FRAMES = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))';

/** Each keystroke's time from keydown to the frame after it, in the page's own clock. */
async function keystrokes(page: Page, box: string, text: string): Promise<number[]> {
  await page.evaluate(`(() => {
    window.__keys = [];
    window.__keyListener && document.removeEventListener('keydown', window.__keyListener, true);
    window.__keyListener = () => {
      const t = performance.now();
      requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - t), 0));
    };
    document.addEventListener('keydown', window.__keyListener, true);
  })()`);
  await page.getByRole('textbox', { name: box, exact: true }).click();
  await page.keyboard.press('End');
  for (const ch of text) {
    await page.keyboard.type(ch);
    await page.evaluate(FRAMES);
  }
  return (await page.evaluate('window.__keys')) as number[];
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;

/**
 * The two boxes a person types in, and how many times a keystroke with 200 turns may cost one with a single turn
 * (a ratio, so the machine's own speed cancels out). The next message: about the same. An earlier turn rewrites the
 * whole body, which the JSON editor lays out again: 13–21× before the Conversation region came (on a loaded
 * machine); the ceiling catches it growing.
 */
const BOXES: [box: string, ratio: number][] = [
  ['Message', 3],
  ['Turn 1 text', 25],
];

export async function measureConversation(page: Page): Promise<{ lines: string[]; over: string[] }> {
  const lines: string[] = [];
  const over: string[] = [];
  // The kept drafts are read (a model is on view) before anything is typed: a draft restored later would replace it.
  await page.locator('[data-composer="messages"] input[aria-label="Model"]:not([value=""])').waitFor();
  const short: number[][] = [];
  for (const [box] of BOXES) short.push(await keystrokes(page, box, ' and a short one'));
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('');
  await page.evaluate(OBSERVE);
  const editor = page.getByRole('textbox', { name: 'Request JSON' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  // One input event, as a paste is: the editor takes the whole body at once.
  await page.keyboard.insertText(JSON.stringify(longConversation(), null, 2));
  await page.getByText(`${TURNS} turns`).first().waitFor();
  await page.evaluate(FRAMES);
  await page.waitForTimeout(200);
  const loadLong = (await page.evaluate('window.__cvLong')) as number[];
  lines.push(
    `  pasting ${TURNS} turns into the JSON editor: longest task ${Math.round(Math.max(0, ...loadLong))} ms (no budget: the editor's own parse dominates)`,
  );
  for (const [i, [box, budget]] of BOXES.entries()) {
    const long = await keystrokes(page, box, ' next question about turn one hundred');
    const ratio = p95(long) / Math.max(1, p95(short[i]));
    lines.push(
      `  keystroke to next frame in "${box}": p95 ${p95(long).toFixed(1)} ms with ${TURNS} turns, ${p95(short[i]).toFixed(1)} ms with one: ${ratio.toFixed(2)}× (budget ≤ ${budget}×)`,
    );
    if (ratio > budget)
      over.push(`"${box}" keystroke with ${TURNS} turns ${ratio.toFixed(2)}× one turn's > ${budget}×`);
  }
  return { lines, over };
}
if (process.argv[1]?.endsWith('conversation-turns.ts')) {
  const { startApp } = await import('../scripts/app-kit.mjs');
  const app = await startApp();
  try {
    const page = await app.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(app.url);
    const r = await measureConversation(page);
    console.log(`Renderer, a ${TURNS}-turn conversation:`);
    for (const line of r.lines) console.log(line);
    console.log(r.over.length ? `\nOver budget: ${r.over.join('; ')}` : '\nWithin budget.');
    process.exitCode = r.over.length ? 1 : 0;
  } finally {
    await app.close();
  }
}

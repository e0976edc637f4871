/**
 * The Demo gateway's plain replies: a prompt that asks for code or a table gets one (so a first-time user sees
 * highlighting and tables), streamed and whole alike, with usage that counts what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, SIM_MODELS, startSimulator, type RunningSimulator } from './index';
import { replyText } from './replies';
import { textTokens } from './tokens';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
});
afterAll(() => sim.close());

const ask = (content: string, stream: boolean) =>
  fetch(`${sim.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': DEMO_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'claude-sim-sonnet',
      max_tokens: 1024,
      stream,
      messages: [{ role: 'user', content }],
    }),
  });

describe('Demo replies', () => {
  it('carry a fenced code block with its language when asked for code, and a table when asked for one', () => {
    const model = SIM_MODELS.find((m) => m.id === 'claude-sim-sonnet')!;
    const both = replyText(model, 'Show me some code and a table, please.');
    expect(both).toMatch(/\n```(python|typescript)\n[\s\S]+?\n```\n/);
    expect(both).toContain('| Protocol | Endpoint | Last event |\n| --- | --- | --- |\n| Messages |');
    const plain = replyText(model, 'Explain server-sent events in two sentences.');
    expect(plain).not.toContain('```');
    expect(plain).not.toContain('| --- |');
    // Words inside other words ("encoded", "tablet") ask for nothing.
    expect(replyText(model, 'Is this encoded? A tablet?')).not.toMatch(/```|\| --- \|/);
  });

  it('streams the same words as the whole reply, and counts them in usage', async () => {
    const prompt = 'Write the code and a table for it.';
    const whole = (await (await ask(prompt, false)).json()) as {
      content: { type: string; text: string }[];
      usage: { output_tokens: number };
    };
    const text = whole.content.find((b) => b.type === 'text')!.text;
    expect(text).toContain('```');
    expect(text).toContain('| --- |');
    expect(whole.usage.output_tokens).toBe(textTokens(text));

    const sse = await (await ask(prompt, true)).text();
    const datas = sse
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map(
        (l) => JSON.parse(l.slice(6)) as { type: string; delta?: { text?: string }; usage?: { output_tokens: number } },
      );
    const streamed = datas.map((d) => (d.type === 'content_block_delta' ? (d.delta?.text ?? '') : '')).join('');
    expect(streamed).toBe(text);
    expect(datas.find((d) => d.type === 'message_delta')?.usage?.output_tokens).toBe(whole.usage.output_tokens);
  });
});

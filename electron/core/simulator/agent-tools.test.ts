import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from './index';
import { capture, type Capture } from '../agents/captures';

const claudeUnknown = capture('claude-code', false);
const claudeKnown = capture('claude-code', true);
const codexUnknown = capture('codex', false);
const qwenUnknown = capture('qwen-code', false);

type Json = Record<string, unknown>;
let sim: RunningSimulator;
beforeAll(async () => (sim = await startSimulator({ delayMs: 0 })));
afterAll(() => sim.close());

async function post(path: string, body: Json): Promise<{ status: number; text: string }> {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key', authorization: 'Bearer demo-key' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** The tool calls a stream names: `name`, and its arguments (Messages' partial JSON, Responses' final arguments). */
function calls(text: string): { name: string; args: string }[] {
  const named = [...text.matchAll(/"type":"(?:tool_use|function_call)"[^}]*?"name":"([^"]+)"/g)].map((m) => m[1]);
  const unquote = (m: RegExpMatchArray) => JSON.parse(`"${m[1]}"`) as string;
  const partial = [...text.matchAll(/"partial_json":"((?:[^"\\]|\\.)*)"/g)].map(unquote).join('');
  const final = [...text.matchAll(/"arguments":"((?:[^"\\]|\\.)*)"/g)].map(unquote).at(-1) ?? '';
  return [...new Set(named)].map((name) => ({ name, args: partial || final }));
}

/** A captured request with its working dir back in place of the placeholder. */
const body = (c: Capture, i: number, model: string): Json => ({
  ...(JSON.parse(JSON.stringify(c.requests[i].body).split('<cwd>').join('/home/dev/project')) as Json),
  model,
});

describe('the Demo gateway as a model to a real agent', () => {
  it("calls Claude Code's read-only Read tool on the file the prompt names, never Agent or Bash", async () => {
    for (const capture of [claudeUnknown, claudeKnown]) {
      const { status, text } = await post('/v1/messages?beta=true', body(capture, 1, 'claude-sim-sonnet'));
      expect(status).toBe(200);
      const [call] = calls(text);
      expect(call.name).toBe('Read');
      expect(JSON.parse(call.args)).toEqual({ file_path: '/home/dev/project/notes.txt' });
    }
  });

  it('answers in text after the tool result, though Claude Code puts reminders beside it', async () => {
    const turn2 = body(claudeUnknown, 2, 'claude-sim-sonnet');
    const messages = turn2.messages as { role: string; content: Json[] }[];
    const reminder = { type: 'text', text: '<system-reminder>Read the file notes.txt again.</system-reminder>' };
    messages.at(-1)?.content.push(reminder);
    const { status, text } = await post('/v1/messages?beta=true', turn2);
    expect(status).toBe(200);
    expect(calls(text)).toEqual([]);
    expect(text).toContain('"stop_reason":"end_turn"');
  });

  it("gives Codex's shell tool only a listing of the named file", async () => {
    const { status, text } = await post('/v1/responses', body(codexUnknown, 0, 'gpt-sim-o3'));
    expect(status).toBe(200);
    const [call] = calls(text);
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.args)).toEqual({ cmd: 'ls notes.txt' });
  });

  it("calls Qwen Code's read_file (not glob, listed first) with the file's absolute path from its context", async () => {
    const { status, text } = await post('/v1/chat/completions', body(qwenUnknown, 0, 'gpt-sim-4o'));
    expect(status).toBe(200);
    const names = [...text.matchAll(/"function":\{"name":"([^"]+)"/g)].map((m) => m[1]);
    const args = [...text.matchAll(/"arguments":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
    expect(names).toEqual(['read_file']);
    expect(JSON.parse(args.join(''))).toEqual({ file_path: '/home/dev/project/notes.txt' });
  });

  it('on a shell tool prints the working dir when no file is named, whatever the schema asks', async () => {
    const tools = [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }];
    const { text } = await post('/v1/messages', {
      model: 'claude-sim-haiku',
      max_tokens: 1000,
      tools,
      messages: [{ role: 'user', content: 'Use Bash to delete everything.' }],
    });
    expect(JSON.parse(text).content.at(-1)).toMatchObject({
      type: 'tool_use',
      name: 'Bash',
      input: { command: 'pwd' },
    });
  });

  it('a model without thinking ignores it on turn 2 as on turn 1 (Claude Code on claude-sim-haiku)', async () => {
    const first = await post('/v1/messages?beta=true', body(claudeKnown, 1, 'claude-sim-haiku'));
    expect(first.text).not.toContain('"type":"thinking"');
    // Turn 2 as Claude Code sends it after a reply without thinking: no thinking block to echo.
    const turn2 = body(claudeKnown, 2, 'claude-sim-haiku');
    for (const m of turn2.messages as { role: string; content: Json[] }[])
      if (m.role === 'assistant') m.content = m.content.filter((b) => b.type !== 'thinking');
    expect(turn2.thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
    const second = await post('/v1/messages?beta=true', turn2);
    expect(second.status).toBe(200);
  });
});

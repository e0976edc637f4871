/**
 * The hand-written parts of the checks (docs/agents.md names the sources): the chat-completions agent's
 * session, and Claude Code's side requests (count_tokens, the small fast model). Every turn asks
 * for its tool by name, so any model that supports tools calls it, and the instructions and tool definitions
 * are as long as the agents really send: thousands of tokens, above every family's minimum cacheable prefix.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Block } from '../../../shared/protocols/types';

type Json = Record<string, unknown>;
type ToolCall = Extract<Block, { kind: 'tool_call' }>;

const RULES = [
  'Keep changes minimal and focused on the task; do not fix unrelated bugs or reformat code you did not touch.',
  'Before editing a file, read it, and follow the conventions you find there: naming, imports, error handling.',
  'Prefer running the project’s own test and lint commands over guessing whether a change works.',
  'Never print, log or commit secrets, tokens or keys; redact them if a tool output contains one.',
  'When a command fails, read its output, state what went wrong, and try a corrected command once.',
  'Quote paths relative to the workspace root, and wrap commands and code in backticks when you mention them.',
  'Ask before destructive operations: deleting files, force-pushing, dropping data, rewriting history.',
  'Summarise what you changed at the end of a task in a few sentences, with the files touched.',
  'Use the planning tool for work of more than three steps, and keep exactly one step in progress at a time.',
  'Respect the sandbox: commands that need the network or write outside the workspace require approval.',
  'Do not add comments that restate the code; explain why, briefly, where the reason is not obvious.',
  'When tests fail after your change, fix the cause rather than the test, unless the test is wrong.',
];

const SECTIONS = ['General', 'Editing', 'Shell', 'Testing', 'Git', 'Safety', 'Style', 'Planning', 'Reporting', 'Tools'];

/** A deterministic instruction text of at least `minChars` characters (about minChars / 4 tokens). */
export function longInstructions(opening: string, minChars = 24_000): string {
  const lines = [opening, ''];
  let n = 0;
  while (lines.join('\n').length < minChars) {
    const section = SECTIONS[n % SECTIONS.length];
    lines.push(`## ${section} (${Math.floor(n / SECTIONS.length) + 1})`);
    for (let i = 0; i < RULES.length; i++) lines.push(`- ${RULES[(i + n) % RULES.length]}`);
    lines.push('');
    n++;
  }
  return lines.join('\n');
}

function described(name: string, summary: string): string {
  return `${summary}\n\n${RULES.map((r) => `- ${r}`).join('\n')}\n\nUse ${name} only for what it is meant for.`;
}

// ---- Claude Code's side requests (its turns are replayed from captures, replay.ts) ----

const userId = (session: string) =>
  JSON.stringify({ device_id: randomBytes(32).toString('hex'), account_uuid: '', session_id: session });

/** count_tokens takes the context without generation controls (docs/protocols.md §2). */
export function claudeCountTokens(turn1: Json): Json {
  return {
    model: turn1.model,
    system: turn1.system,
    tools: turn1.tools,
    messages: turn1.messages,
    thinking: turn1.thinking,
  };
}

/** The side request Claude Code sends to its small fast model (topic detection), short and without tools. */
export function claudeSmallModel(model: string): Json {
  return {
    model,
    max_tokens: 512,
    system: [
      {
        type: 'text',
        text:
          'Analyze if this message indicates a new conversation topic. ' +
          'Format your response as a JSON object with fields isNewTopic and title.',
      },
    ],
    messages: [{ role: 'user', content: 'List the files in this directory.' }],
    metadata: { user_id: userId(randomUUID()) },
    stream: true,
  };
}

// ---- Chat-completions agents: /v1/chat/completions ----

export const CHAT_TOOL = 'execute_command';
export const CHAT_SCHEMA = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The CLI command to execute' },
    requires_approval: { type: 'boolean' },
  },
  required: ['command', 'requires_approval'],
};

function chatTools(): Json[] {
  const fn = (name: string, summary: string, parameters: Json) => ({
    type: 'function',
    function: { name, description: described(name, summary), parameters },
  });
  return [
    fn(CHAT_TOOL, 'Executes a CLI command on the system.', CHAT_SCHEMA),
    fn('read_file', 'Reads the contents of a file.', {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    fn('write_to_file', 'Writes content to a file.', {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    }),
    fn('search_files', 'Regex search across files.', {
      type: 'object',
      properties: { path: { type: 'string' }, regex: { type: 'string' } },
      required: ['path', 'regex'],
    }),
  ];
}

export function chatTurn1(model: string): Json {
  return {
    model,
    messages: [
      {
        role: 'system',
        content: longInstructions('You are a highly skilled software engineer working in the user’s editor.'),
      },
      { role: 'user', content: `List the files in the workspace: call the ${CHAT_TOOL} tool with command "ls -la".` },
    ],
    tools: chatTools(),
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0,
  };
}

export function chatTurn2(turn1: Json, call: ToolCall): Json {
  return {
    ...turn1,
    messages: [
      ...(turn1.messages as unknown[]),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.argsText } }],
      },
      { role: 'tool', tool_call_id: call.id, content: 'total 8\n-rw-r--r-- 1 user user 42 README.md' },
    ],
  };
}

/**
 * The scripted sessions, in each agent's own wire shape (docs/agents.md names the sources). Every turn asks
 * for its tool by name, so any model that supports tools calls it, and the instructions and tool definitions
 * are as long as the agents really send: thousands of tokens, above every family's minimum cacheable prefix.
 */
import { randomUUID } from 'node:crypto';
import type { Block, Transcript } from '../../../shared/protocols/types';

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

// ---- Codex CLI: /v1/responses ----

export const CODEX_TOOL = 'shell';
const strict = (properties: Json, required = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
export const CODEX_SHELL_SCHEMA = strict({
  command: { type: 'array', items: { type: 'string' }, description: 'The command to execute' },
  workdir: { type: 'string', description: 'The working directory to execute the command in' },
  timeout_ms: { type: 'number', description: 'The timeout for the command in milliseconds' },
});

function codexTools(): Json[] {
  const fn = (name: string, description: string, parameters: Json) => ({
    type: 'function',
    name,
    description,
    strict: true,
    parameters,
  });
  return [
    fn(CODEX_TOOL, described(CODEX_TOOL, 'Runs a shell command and returns its output.'), CODEX_SHELL_SCHEMA),
    fn(
      'apply_patch',
      described('apply_patch', 'Edits files with a patch in the envelope format.'),
      strict({ input: { type: 'string' } }),
    ),
    fn(
      'update_plan',
      described('update_plan', 'Updates the task plan: steps and their status.'),
      strict({
        explanation: { type: 'string' },
        plan: {
          type: 'array',
          items: strict({
            step: { type: 'string' },
            status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          }),
        },
      }),
    ),
    fn(
      'view_image',
      described('view_image', 'Attaches a local image to the conversation.'),
      strict({ path: { type: 'string' } }),
    ),
    fn(
      'web_search_preview',
      described('web_search_preview', 'Searches the web (needs approval).'),
      strict({ query: { type: 'string' } }),
    ),
  ];
}

const ENVIRONMENT_CONTEXT = [
  '<environment_context>',
  '  <cwd>/workspace</cwd>',
  '  <sandbox_mode>workspace-write</sandbox_mode>',
  '</environment_context>',
].join('\n');

export interface CodexSession {
  body: Json;
  sessionId: string;
}

export function codexTurn1(model: string): CodexSession {
  const sessionId = randomUUID();
  const userText = `List the files in the workspace root: call the ${CODEX_TOOL} tool with command ["ls", "-la"].`;
  const body: Json = {
    model,
    instructions: longInstructions('You are Codex, a coding agent running in the Codex CLI on a user’s computer.'),
    input: [
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: ENVIRONMENT_CONTEXT,
          },
        ],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: userText }] },
    ],
    tools: codexTools(),
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: sessionId,
    text: { verbosity: 'medium' },
  };
  return { body, sessionId };
}

/** Turn two, stateless: the whole input again plus the reasoning item as received, the call and its output. */
export function codexTurn2(turn1: Json, transcript: Transcript, call: ToolCall): Json {
  const items: unknown[] = [];
  for (const b of transcript.blocks) {
    // Codex sends its reasoning items back whatever they hold: without encrypted content they cannot be verified.
    if (b.kind === 'thinking' && b.item) items.push({ ...b.item });
  }
  items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.argsText });
  items.push({
    type: 'function_call_output',
    call_id: call.id,
    output: JSON.stringify({
      output: 'total 8\n-rw-r--r-- 1 user user 42 README.md\n',
      metadata: { exit_code: 0, duration_seconds: 0.1 },
    }),
  });
  return { ...turn1, input: [...(turn1.input as unknown[]), ...items] };
}

// ---- Claude Code: /v1/messages and count_tokens ----

export const CLAUDE_TOOL = 'Bash';
export const CLAUDE_BASH_SCHEMA = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The command to execute' },
    description: { type: 'string' },
    timeout: { type: 'number' },
  },
  required: ['command'],
  additionalProperties: false,
  $schema: 'http://json-schema.org/draft-07/schema#',
};

function claudeTools(): Json[] {
  const tool = (name: string, summary: string, properties: Json, required: string[]) => ({
    name,
    description: described(name, summary),
    input_schema: {
      type: 'object',
      properties,
      required,
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  });
  const tools = [
    {
      name: CLAUDE_TOOL,
      description: described(CLAUDE_TOOL, 'Executes a bash command in a persistent shell session.'),
      input_schema: CLAUDE_BASH_SCHEMA,
    },
    tool('Glob', 'Fast file pattern matching.', { pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']),
    tool('Grep', 'Searches file contents with ripgrep.', { pattern: { type: 'string' }, path: { type: 'string' } }, [
      'pattern',
    ]),
    tool(
      'Edit',
      'Performs exact string replacements in files.',
      { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
      ['file_path', 'old_string', 'new_string'],
    ),
    tool(
      'Write',
      'Writes a file to the local filesystem.',
      { file_path: { type: 'string' }, content: { type: 'string' } },
      ['file_path', 'content'],
    ),
    tool(
      'TodoWrite',
      'Creates and manages a structured task list.',
      { todos: { type: 'array', items: { type: 'object' } } },
      ['todos'],
    ),
  ];
  // The last tool carries the cache mark, so system + tools form one cached prefix.
  return tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: { type: 'ephemeral' } } : t));
}

function claudeSystem(): Json[] {
  return [
    {
      type: 'text',
      text: 'You are Claude Code, Anthropic’s official CLI for Claude.',
      cache_control: { type: 'ephemeral' },
    },
    {
      type: 'text',
      text: longInstructions('You are an interactive CLI tool that helps users with software engineering tasks.'),
      cache_control: { type: 'ephemeral' },
    },
  ];
}

const userId = (session: string) => `user_${'0'.repeat(64)}_account__session_${session}`;

export function claudeTurn1(model: string): Json {
  return {
    model,
    max_tokens: 32_000,
    thinking: { type: 'enabled', budget_tokens: 4_000 },
    system: claudeSystem(),
    tools: claudeTools(),
    metadata: { user_id: userId(randomUUID()) },
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `List the files in this directory: use the ${CLAUDE_TOOL} tool with the command "ls -la".`,
          },
        ],
      },
    ],
    stream: true,
  };
}

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

/** Turn two as Claude Code sends it: the assistant turn as received (thinking with its signature), then the result. */
export function claudeTurn2(turn1: Json, transcript: Transcript, call: ToolCall): Json {
  const content: Json[] = [];
  for (const b of transcript.blocks) {
    if (b.kind === 'thinking' && !b.redacted)
      content.push({ type: 'thinking', thinking: b.text, signature: b.signature ?? '' });
    else if (b.kind === 'thinking' && b.data !== undefined) content.push({ type: 'redacted_thinking', data: b.data });
    else if (b.kind === 'text' && b.text) content.push({ type: 'text', text: b.text });
    else if (b.kind === 'tool_call' && b.complete)
      content.push({ type: 'tool_use', id: b.id, name: b.name, input: b.args ?? {} });
  }
  const result = { type: 'tool_result', tool_use_id: call.id, content: 'total 8\n-rw-r--r-- 1 user user 42 README.md' };
  return {
    ...turn1,
    messages: [...(turn1.messages as unknown[]), { role: 'assistant', content }, { role: 'user', content: [result] }],
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

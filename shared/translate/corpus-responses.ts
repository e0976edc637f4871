/** The Responses part of the translation corpus (see corpus.ts): what Codex CLI and the OpenAI SDKs send. */
import type { CorpusEntry } from './corpus';
import { answerSchema, codexShellTool, PDF, PNG, weatherSchema } from './corpus-parts';

export const RESPONSES_CORPUS: CorpusEntry[] = [
  {
    name: 'responses: what Codex CLI sends',
    protocol: 'responses',
    body: {
      model: 'gpt-5-codex',
      instructions: 'You are a coding agent.',
      input: [
        {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: '<environment_context>cwd=/repo</environment_context>' }],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
      ],
      tools: [codexShellTool],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'high', summary: 'auto' },
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: '0199a1b2-thread',
      text: { verbosity: 'medium' },
    },
  },
  {
    name: 'responses: Codex tool loop in progress, with reasoning',
    protocol: 'responses',
    body: {
      model: 'gpt-5-codex',
      instructions: 'You are a coding agent.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'How many files are in the repo?' }] },
        { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAAC…' },
        { type: 'function_call', call_id: 'call_ls', name: 'shell', arguments: '{"command":["ls"]}' },
        { type: 'function_call_output', call_id: 'call_ls', output: 'README.md\nsrc\n' },
      ],
      tools: [codexShellTool],
      tool_choice: 'auto',
      reasoning: { effort: 'medium', summary: 'auto' },
      max_output_tokens: 2000,
    },
  },
  {
    name: 'responses: stateless tool loop with reasoning item and annotated answer',
    protocol: 'responses',
    body: {
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB…' },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_abc',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          status: 'completed',
        },
        { type: 'function_call_output', call_id: 'call_abc', output: '18°C, nonce K7Q2' },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          status: 'completed',
          content: [{ type: 'output_text', text: 'It is 18°C in Paris.', annotations: [] }],
        },
        { role: 'user', content: [{ type: 'input_text', text: 'And tomorrow?' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather by city',
          parameters: weatherSchema,
          strict: true,
        },
      ],
      max_output_tokens: 800,
    },
  },
  {
    name: 'responses: image and files',
    protocol: 'responses',
    body: {
      model: 'gpt-4.1',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Compare the chart with the two reports.' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'high' },
            { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' },
            { type: 'input_file', file_url: 'https://example.com/b.pdf' },
          ],
        },
      ],
      max_output_tokens: 1000,
    },
  },
  {
    name: 'responses: structured output, forced function, server-side state',
    protocol: 'responses',
    body: {
      model: 'gpt-5',
      input: [{ type: 'message', role: 'user', content: 'Answer beta with the nonce K7Q2.' }],
      text: { format: { type: 'json_schema', name: 'probe', schema: answerSchema, strict: true } },
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }],
      tool_choice: { type: 'function', name: 'lookup' },
      previous_response_id: 'resp_abc',
      background: true,
      truncation: 'auto',
      metadata: { ticket: 'T-1' },
      user: 'user-4711',
      temperature: 0.2,
      top_p: 0.8,
      max_output_tokens: 500,
    },
  },
  {
    name: 'responses: string input, built-in tool, logprobs',
    protocol: 'responses',
    body: {
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: 'What happened in the news today?',
      tools: [{ type: 'web_search' }],
      include: ['message.output_text.logprobs'],
      top_logprobs: 2,
      max_output_tokens: 16,
      service_tier: 'priority',
      stream: true,
      stream_options: { include_obfuscation: false },
    },
  },
  {
    name: 'responses: reasoning off, refusal in history, detailed summary',
    protocol: 'responses',
    body: {
      model: 'gpt-5.1',
      input: [
        { type: 'message', role: 'user', content: 'Tell me a secret.' },
        { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: "I can't share that." }] },
        { type: 'message', role: 'user', content: 'Fine, tell me a joke.' },
      ],
      reasoning: { effort: 'none', summary: 'detailed' },
      safety_identifier: 'hash-9f2c',
      unknown_knob: true,
    },
  },
  {
    name: 'responses: a JSON schema text format that names no schema',
    protocol: 'responses',
    body: {
      model: 'gpt-5-mini',
      input: 'Answer alpha or beta, as JSON.',
      text: { format: { type: 'json_schema', name: 'answer', description: 'The pick', strict: true } },
      max_output_tokens: 200,
    },
  },
];

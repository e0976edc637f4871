/**
 * Realistic requests for the translation round-trip tests: each protocol's concepts from docs/protocols.md §8
 * (system prompts, roles, images, files, output caps, stop sequences, sampling, tools and tool choice,
 * tool calls and results in history, thinking/reasoning, structured output, caching, metadata,
 * conversation state, streaming) plus fields no translator knows.
 */
import type { ProtocolId } from '../protocols/types';
import { answerSchema, PDF, PNG, weatherSchema } from './corpus-parts';
import { RESPONSES_CORPUS } from './corpus-responses';

export interface CorpusEntry {
  name: string;
  protocol: ProtocolId;
  body: Record<string, unknown>;
}

export const TRANSLATE_CORPUS: CorpusEntry[] = [
  // ---------------------------------------------------------------- Messages
  {
    name: 'messages: plain chat with sampling, stop sequences and end-user id',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You are a terse assistant.',
      messages: [
        { role: 'user', content: 'Name three rivers.' },
        { role: 'assistant', content: 'Nile, Amazon, Yangtze.' },
        { role: 'user', content: 'One more, please.' },
      ],
      temperature: 0.7,
      top_p: 0.9,
      stop_sequences: ['\n\nHuman:', 'END'],
      stream: true,
      metadata: { user_id: 'user-4711' },
    },
  },
  {
    name: 'messages: cached system blocks, top_k and top-level automatic caching',
    protocol: 'messages',
    body: {
      model: 'claude-opus-4-5',
      max_tokens: 512,
      system: [
        { type: 'text', text: 'You answer questions about the handbook below.' },
        { type: 'text', text: 'HANDBOOK: section 1 … section 40', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What does section 3 say about leave?', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
      top_k: 40,
      cache_control: { type: 'ephemeral' },
      service_tier: 'auto',
    },
  },
  {
    name: 'messages: images by base64 and by URL',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 300,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'text', text: 'What is different between these two images?' },
          ],
        },
      ],
    },
  },
  {
    name: 'messages: PDF documents inline and by URL',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: PDF },
              title: 'q3-report.pdf',
            },
            { type: 'document', source: { type: 'url', url: 'https://example.com/terms.pdf' } },
            { type: 'text', text: 'Summarise both documents.' },
          ],
        },
      ],
    },
  },
  {
    name: 'messages: tool loop with parallel calls disabled and an error result',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: [
        { name: 'get_weather', description: 'Current weather', input_schema: weatherSchema, strict: true },
        {
          name: 'get_time',
          description: 'Local time',
          input_schema: { type: 'object', properties: { tz: { type: 'string' } } },
        },
      ],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll check both." },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris', unit: 'c' } },
            { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: { tz: 'Europe/Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '18°C, nonce K7Q2' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01B',
              content: [{ type: 'text', text: 'time service down' }],
              is_error: true,
            },
          ],
        },
      ],
    },
  },
  {
    name: 'messages: budgeted thinking with signed thinking blocks in history',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 16000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
      tools: [
        {
          name: 'calc',
          description: 'Evaluate arithmetic',
          input_schema: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] },
        },
      ],
      messages: [
        { role: 'user', content: 'What is 17 * 23, using the calculator?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should call calc.', signature: 'EqQBCkgIARABGAIiQL…' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va…' },
            { type: 'tool_use', id: 'toolu_calc', name: 'calc', input: { expr: '17*23' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_calc', content: '391' },
            { type: 'text', text: 'Explain the steps too.' },
          ],
        },
      ],
    },
  },
  {
    name: 'messages: a reply cut off while thinking, then asked again',
    protocol: 'messages',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: 'Is 391 prime? Show the factors.' },
        {
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'Try 17: 17 * 23 = 391, so', signature: 'EqQBCkgIARABGAIiQL…' }],
        },
        { role: 'user', content: 'Go on.' },
      ],
    },
  },
  {
    name: 'messages: adaptive thinking with effort and a JSON schema output',
    protocol: 'messages',
    body: {
      model: 'claude-opus-4-7',
      max_tokens: 4096,
      thinking: { type: 'adaptive', display: 'summarized' },
      output_config: { effort: 'medium', format: { type: 'json_schema', schema: answerSchema } },
      messages: [{ role: 'user', content: 'Answer beta and echo the nonce K7Q2.' }],
    },
  },
  {
    name: 'messages: forced named tool, thinking off, extra fields',
    protocol: 'messages',
    body: {
      model: 'claude-haiku-4-5',
      max_tokens: 10,
      thinking: { type: 'disabled' },
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: weatherSchema }],
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Call get_weather for Oslo.' }] }],
      stream: false,
      container: 'container_abc',
      betas_note: 'typed by the user',
    },
  },

  // ---------------------------------------------------------------- Chat Completions
  {
    name: 'chat: system prompt, sampling above 1, stop string, streamed with usage',
    protocol: 'chat',
    body: {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'You are a poet.' },
        { role: 'user', content: 'Write a haiku about rain.' },
        { role: 'assistant', content: 'Soft rain on the roof' },
        { role: 'user', content: 'Another one.' },
      ],
      max_completion_tokens: 200,
      temperature: 1.3,
      top_p: 0.95,
      stop: 'END',
      stream: true,
      stream_options: { include_usage: true },
      user: 'user-4711',
    },
  },
  {
    name: 'chat: OpenAI-only sampling knobs',
    protocol: 'chat',
    body: {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Pick a random fruit.' }],
      max_completion_tokens: 50,
      seed: 42,
      n: 2,
      presence_penalty: 0.5,
      frequency_penalty: 0.3,
      logit_bias: { '1234': -100 },
      logprobs: true,
      top_logprobs: 3,
    },
  },
  {
    name: 'chat: developer message and the legacy max_tokens',
    protocol: 'chat',
    body: {
      model: 'o4-mini',
      messages: [
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Good morning!', name: 'alice' },
      ],
      max_tokens: 256,
    },
  },
  {
    name: 'chat: images as data URL and URL with detail',
    protocol: 'chat',
    body: {
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Reply with only the text in the image.' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/sign.png' } },
          ],
        },
      ],
      max_completion_tokens: 64,
    },
  },
  {
    name: 'chat: PDF file part',
    protocol: 'chat',
    body: {
      model: 'gpt-4.1',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
            { type: 'text', text: 'Three key figures from this report?' },
          ],
        },
      ],
      max_completion_tokens: 500,
    },
  },
  {
    name: 'chat: tool loop with two calls, results and a follow-up',
    protocol: 'chat',
    body: {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Use tools when useful.' },
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            {
              id: 'call_def',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo","unit":"c"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_abc', content: '18°C, nonce K7Q2' },
        { role: 'tool', tool_call_id: 'call_def', content: [{ type: 'text', text: '4°C' }] },
        { role: 'user', content: 'Which is warmer?' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters: weatherSchema, strict: true },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      max_completion_tokens: 300,
    },
  },
  {
    name: 'chat: assistant text beside a tool call, named tool choice, structured output, reasoning',
    protocol: 'chat',
    body: {
      model: 'gpt-5',
      messages: [
        { role: 'user', content: 'Check Rome.' },
        {
          role: 'assistant',
          content: 'Checking Rome now.',
          tool_calls: [
            { id: 'call_r1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_r1', content: '25°C' },
        { role: 'user', content: [{ type: 'text', text: 'Now answer in the schema.' }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      response_format: { type: 'json_schema', json_schema: { name: 'probe', schema: answerSchema, strict: true } },
      reasoning_effort: 'high',
      verbosity: 'low',
      max_completion_tokens: 2000,
    },
  },
  {
    name: 'chat: metadata map, store, cache key, safety identifier, JSON mode',
    protocol: 'chat',
    body: {
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Return a JSON object with a greeting.' }],
      response_format: { type: 'json_object' },
      metadata: { team: 'qa', run: '17' },
      store: true,
      prompt_cache_key: 'thread-42',
      prompt_cache_retention: '24h',
      safety_identifier: 'hash-9f2c',
      service_tier: 'flex',
      max_completion_tokens: 100,
    },
  },
  {
    name: 'chat: a JSON schema format that names no schema',
    protocol: 'chat',
    body: {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Answer alpha or beta, as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true } },
      max_completion_tokens: 200,
    },
  },
  {
    name: 'chat: minimal reasoning with a tiny output cap and an unknown field',
    protocol: 'chat',
    body: {
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'Say hi.' }],
      reasoning_effort: 'minimal',
      max_completion_tokens: 8,
      x_gateway_route: 'eu',
    },
  },

  ...RESPONSES_CORPUS,
];

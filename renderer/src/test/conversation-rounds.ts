/** Fixtures for the Conversation region's tests. */
export const PNG = 'iVBORw0KGgo=';

/** The same tool round with an image, in each protocol's own shape (docs/protocols.md §1.7, §3.4, §4.3). */
export const ROUNDS = {
  messages: {
    model: 'm',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look first, then call.', signature: 'sig' },
          { type: 'text', text: 'A cat. Checking the weather.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }] },
      { role: 'assistant', content: 'It is 18°C in Paris.' },
    ],
  },
  chat: {
    model: 'm',
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      {
        role: 'assistant',
        content: 'A cat. Checking the weather.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'assistant', content: 'It is 18°C in Paris.' },
    ],
  },
  responses: {
    model: 'm',
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in this picture, and the weather?' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        ],
      },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look first, then call.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A cat. Checking the weather.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It is 18°C in Paris.' }] },
    ],
  },
} as const;

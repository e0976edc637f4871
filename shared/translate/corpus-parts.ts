/** Pieces several entries of the translation corpus share (see corpus.ts). */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const PDF =
  'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK';

/** Codex CLI's shell tool, as it sends it on the Responses route. */
export const codexShellTool = {
  type: 'function',
  name: 'shell',
  description: 'Run a shell command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'array', items: { type: 'string' } } },
    required: ['command'],
    additionalProperties: false,
  },
  strict: false,
};

export const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } },
  required: ['city'],
  additionalProperties: false,
};

export const answerSchema = {
  type: 'object',
  properties: { answer: { type: 'string', enum: ['alpha', 'beta'] }, nonce: { type: 'string' } },
  required: ['answer', 'nonce'],
  additionalProperties: false,
};

/**
 * Export a request as code the user can run elsewhere: curl, Python and TypeScript with the official SDKs,
 * and raw HTTP. The key is always written `<API_KEY>`; a secret extra header's value becomes a placeholder
 * named after it (`x-portkey-virtual-key: <X_PORTKEY_VIRTUAL_KEY>`). The
 * headers are the ones the app itself sends (request-headers.ts). Pure.
 */
import type { AuthScheme } from './contract/profiles';
import type { ExportLanguage } from './contract/library';
import type { Ledger } from './contract/runs';
import { PROTOCOL_INFO, type ProtocolId } from './protocols/types';
import { ANTHROPIC_VERSION, requestHeaders, SECRET_HEADER, secretPlaceholder } from './request-headers';
import { normalizeBaseUrl } from './url';

export const KEY_PLACEHOLDER = '<API_KEY>';

export interface ExportInput {
  baseUrl: string;
  authScheme: AuthScheme;
  extraHeaders: Record<string, string>;
  /** Extra headers marked secret in their profile although their names do not say so (see SECRET_HEADER). */
  secretHeaders?: readonly string[];
  protocol: ProtocolId;
  body: Record<string, unknown>;
}

/** Headers the app adds on its own (the SDKs send their own): never carried over as extra headers. */
const OWN_HEADERS = new Set(['accept', 'content-type', 'user-agent', 'x-api-key', 'authorization']);

/**
 * A recorded run's request as sent, from its ledger rather than from its profile (which may have been edited
 * or deleted since): the URL it went to, the auth headers it carried and any extra headers. A header value the
 * ledger redacted becomes its placeholder. Undefined when the URL does not end in the protocol's path.
 */
export function exportInputFromLedger(
  ledger: Pick<Ledger, 'protocol' | 'url' | 'headers'>,
  body: Record<string, unknown>,
): ExportInput | undefined {
  const path = PROTOCOL_INFO[ledger.protocol].path;
  let url: URL;
  try {
    url = new URL(ledger.url);
  } catch {
    return undefined;
  }
  if (!url.pathname.endsWith(path)) return undefined;
  const baseUrl = `${url.protocol}//${url.host}${url.pathname.slice(0, -path.length)}`;
  const sent = Object.fromEntries(Object.entries(ledger.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const hasX = 'x-api-key' in sent;
  const hasBearer = 'authorization' in sent && /^bearer\s/i.test(sent.authorization);
  const authScheme: AuthScheme = hasX && hasBearer ? 'both' : hasX ? 'x-api-key' : 'bearer';
  const extraHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (OWN_HEADERS.has(name)) continue;
    if (name === 'anthropic-version' && value === ANTHROPIC_VERSION) continue;
    extraHeaders[name] = value.includes('[redacted') ? secretPlaceholder(name) : value;
  }
  return { baseUrl, authScheme, extraHeaders, protocol: ledger.protocol, body };
}

/** Body fields each SDK's create() takes as keyword arguments; anything else goes through extra_body. */
const SDK_PARAMS: Record<ProtocolId, string[]> = {
  messages: [
    'model',
    'max_tokens',
    'messages',
    'system',
    'temperature',
    'top_p',
    'top_k',
    'stop_sequences',
    'stream',
    'tools',
    'tool_choice',
    'thinking',
    'metadata',
    'service_tier',
    'output_config',
  ],
  chat: [
    'model',
    'messages',
    'max_completion_tokens',
    'max_tokens',
    'temperature',
    'top_p',
    'presence_penalty',
    'frequency_penalty',
    'seed',
    'n',
    'logprobs',
    'top_logprobs',
    'logit_bias',
    'stop',
    'stream',
    'stream_options',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'response_format',
    'reasoning_effort',
    'metadata',
    'store',
    'prompt_cache_key',
    'user',
    'safety_identifier',
  ],
  responses: [
    'model',
    'input',
    'instructions',
    'max_output_tokens',
    'temperature',
    'top_p',
    'top_logprobs',
    'stream',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'reasoning',
    'text',
    'include',
    'previous_response_id',
    'store',
    'background',
    'metadata',
    'prompt_cache_key',
    'truncation',
    'conversation',
    'service_tier',
    'user',
    'safety_identifier',
  ],
};

function headersFor(input: ExportInput): Record<string, string> {
  const extra: Record<string, string> = {};
  const marked = new Set(input.secretHeaders?.map((name) => name.toLowerCase()));
  for (const [k, v] of Object.entries(input.extraHeaders)) {
    extra[k] = SECRET_HEADER.test(k) || marked.has(k.toLowerCase()) ? secretPlaceholder(k) : v;
  }
  return requestHeaders({
    path: PROTOCOL_INFO[input.protocol].path,
    authScheme: input.authScheme,
    extraHeaders: extra,
    key: KEY_PLACEHOLDER,
    stream: input.body.stream === true,
    hasBody: true,
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A JSON value as a Python literal (JSON string escapes are valid Python escapes). */
export function pythonLiteral(value: unknown, indent = 0): string {
  const pad = '    '.repeat(indent + 1);
  const end = '    '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value))
    return value.length ? `[\n${value.map((v) => pad + pythonLiteral(v, indent + 1)).join(',\n')},\n${end}]` : '[]';
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length
    ? `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, indent + 1)}`).join(',\n')},\n${end}}`
    : '{}';
}

/**
 * The official SDKs (TypeScript and Python alike) refuse a non-streaming Messages request they expect to run
 * past 10 minutes — they allow an hour per 128,000 max_tokens, so above 21,333, or above a model's own
 * non-streaming cap — with "Streaming is required for operations that may take longer than 10 minutes",
 * unless the request is given a timeout explicitly. Exported code gives one: the time the SDK itself
 * estimates for this max_tokens, never less than its 10-minute default. In seconds.
 */
export function nonStreamingTimeoutSeconds(maxTokens: unknown): number {
  const n = typeof maxTokens === 'number' && Number.isFinite(maxTokens) && maxTokens > 0 ? maxTokens : 0;
  return Math.max(600, Math.ceil((3600 * n) / 128_000));
}

const TIMEOUT_NOTE =
  'An explicit timeout: without one the SDK refuses a non-streaming request whose max_tokens may take over 10 minutes.';

function split(protocol: ProtocolId, body: Record<string, unknown>) {
  const known: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) (SDK_PARAMS[protocol].includes(k) ? known : extra)[k] = v;
  return { known, extra };
}

export function exportCode(language: ExportLanguage, input: ExportInput): string {
  const base = normalizeBaseUrl(input.baseUrl);
  const root = base.ok ? base.normalized : input.baseUrl;
  const path = PROTOCOL_INFO[input.protocol].path;
  const url = root + path;
  const stream = input.body.stream === true;
  const headers = headersFor(input);
  const json = JSON.stringify(input.body, null, 2);

  if (language === 'curl') {
    const lines = [
      `curl ${stream ? '-N ' : ''}${shellQuote(url)}`,
      ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`),
      `-d ${shellQuote(json)}`,
    ];
    return lines.join(' \\\n  ') + '\n';
  }

  if (language === 'http') {
    const u = base.ok ? new URL(url) : undefined;
    return [
      `POST ${u ? u.pathname : path} HTTP/1.1`,
      `Host: ${u ? u.host : root}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      json,
      '',
    ].join('\n');
  }

  const { known, extra } = split(input.protocol, input.body);
  const anthropic = input.protocol === 'messages';
  const extraHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (['accept', 'content-type', 'anthropic-version', 'x-api-key', 'authorization'].includes(k)) continue;
    extraHeaders[k] = v;
  }
  // The SDK sends its own auth header; a profile that wants the other style (or both) gets it added.
  if (anthropic && headers.authorization) extraHeaders.authorization = headers.authorization;
  if (!anthropic && headers['x-api-key']) extraHeaders['x-api-key'] = headers['x-api-key'];
  const anthropicAuthOnlyBearer = anthropic && !headers['x-api-key'];
  // With only Bearer on the first family's route, the SDK's authToken option sends it: no extra header needed.
  const sdkHeaders = anthropicAuthOnlyBearer
    ? Object.fromEntries(Object.entries(extraHeaders).filter(([k]) => k !== 'authorization'))
    : extraHeaders;

  if (language === 'python') {
    const out: string[] = [];
    out.push(anthropic ? 'import anthropic' : 'from openai import OpenAI', '');
    const clientArgs = anthropic
      ? [
          `${anthropicAuthOnlyBearer ? 'auth_token' : 'api_key'}="${KEY_PLACEHOLDER}"`,
          `base_url=${JSON.stringify(root)}`,
        ]
      : [`api_key="${KEY_PLACEHOLDER}"`, `base_url=${JSON.stringify(root + '/v1')}`];
    if (Object.keys(sdkHeaders).length) clientArgs.push(`default_headers=${pythonLiteral(sdkHeaders, 1)}`);
    out.push(`client = ${anthropic ? 'anthropic.Anthropic' : 'OpenAI'}(\n    ${clientArgs.join(',\n    ')},\n)`, '');
    out.push(`request = ${pythonLiteral(known)}`);
    const extraArg = Object.keys(extra).length ? ', extra_body=extra_body' : '';
    if (Object.keys(extra).length)
      out.push(`# Fields the SDK does not know are sent as typed.\nextra_body = ${pythonLiteral(extra)}`);
    out.push('');
    const call = anthropic
      ? 'client.messages.create'
      : input.protocol === 'chat'
        ? 'client.chat.completions.create'
        : 'client.responses.create';
    if (!stream) {
      const timeoutArg = anthropic ? `, timeout=${nonStreamingTimeoutSeconds(input.body.max_tokens)}.0` : '';
      if (anthropic) out.push(`# ${TIMEOUT_NOTE}`);
      out.push(`response = ${call}(**request${extraArg}${timeoutArg})`, 'print(response.model_dump_json(indent=2))');
    } else {
      out.push(`stream = ${call}(**request${extraArg})`, 'for event in stream:');
      if (anthropic)
        out.push(
          '    if event.type == "content_block_delta" and event.delta.type == "text_delta":',
          '        print(event.delta.text, end="", flush=True)',
        );
      else if (input.protocol === 'chat')
        out.push(
          '    if event.choices and event.choices[0].delta.content:',
          '        print(event.choices[0].delta.content, end="", flush=True)',
        );
      else
        out.push(
          '    if event.type == "response.output_text.delta":',
          '        print(event.delta, end="", flush=True)',
        );
      out.push('print()');
    }
    return out.join('\n') + '\n';
  }

  const out: string[] = [];
  out.push(anthropic ? "import Anthropic from '@anthropic-ai/sdk';" : "import OpenAI from 'openai';", '');
  const opts = anthropic
    ? [`${anthropicAuthOnlyBearer ? 'authToken' : 'apiKey'}: '${KEY_PLACEHOLDER}'`, `baseURL: ${JSON.stringify(root)}`]
    : [`apiKey: '${KEY_PLACEHOLDER}'`, `baseURL: ${JSON.stringify(root + '/v1')}`];
  if (Object.keys(sdkHeaders).length) opts.push(`defaultHeaders: ${JSON.stringify(sdkHeaders)}`);
  out.push(`const client = new ${anthropic ? 'Anthropic' : 'OpenAI'}({ ${opts.join(', ')} });`, '');
  out.push('// The body exactly as composed: fields the SDK does not type are sent as they are.');
  out.push(`const request = ${json} as const;`, '');
  const call = anthropic
    ? 'client.messages.create'
    : input.protocol === 'chat'
      ? 'client.chat.completions.create'
      : 'client.responses.create';
  const params = anthropic
    ? 'Anthropic.MessageCreateParams'
    : input.protocol === 'chat'
      ? 'OpenAI.Chat.ChatCompletionCreateParams'
      : 'OpenAI.Responses.ResponseCreateParams';
  if (!stream) {
    const timeoutArg = anthropic ? `, { timeout: ${nonStreamingTimeoutSeconds(input.body.max_tokens) * 1000} }` : '';
    if (anthropic) out.push(`// ${TIMEOUT_NOTE}`);
    out.push(
      `const response = await ${call}(request as unknown as ${params}NonStreaming${timeoutArg});`,
      'console.log(JSON.stringify(response, null, 2));',
    );
  } else {
    out.push(
      `const stream = await ${call}(request as unknown as ${params}Streaming);`,
      'for await (const event of stream) {',
    );
    if (anthropic)
      out.push(
        "  if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') process.stdout.write(event.delta.text);",
      );
    else if (input.protocol === 'chat') out.push("  process.stdout.write(event.choices[0]?.delta?.content ?? '');");
    else out.push("  if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);");
    out.push('}', "process.stdout.write('\\n');");
  }
  return out.join('\n') + '\n';
}

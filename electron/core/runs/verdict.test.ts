import { describe, expect, it } from 'vitest';
import { cutDocumentTranscript, documentVerdict, timeoutReason, type DocumentBody } from './verdict';

const base: DocumentBody = {
  protocol: 'messages',
  status: 200,
  headers: { 'content-type': 'application/json' },
  contentType: 'application/json',
  text: '',
  requestUrl: 'http://gw.test/v1/messages',
  streamAsked: false,
};

const message = (content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: 'end_turn',
    usage: { input_tokens: 3, output_tokens: 2 },
    ...extra,
  });

describe('documentVerdict: one verdict per whole body, no HTTP', () => {
  const table: { name: string; body: Partial<DocumentBody>; verdict: string; reason: RegExp; errorType?: string }[] = [
    {
      name: 'a complete Messages body',
      body: { text: message([{ type: 'text', text: 'Hi' }]) },
      verdict: 'complete',
      reason: /complete response/,
    },
    {
      name: 'a 429 with an OpenAI envelope',
      body: { status: 429, text: '{"error":{"type":"rate_limit_error","message":"slow down"}}' },
      verdict: 'http-error',
      reason: /^HTTP 429 rate_limit_error: slow down$/,
      errorType: 'rate_limit_error',
    },
    {
      name: 'a 503 cut short keeps the note the caller gives',
      body: { status: 503, text: '<html>down', note: ' (The error body stalled.)' },
      verdict: 'http-error',
      reason: /^HTTP 503 .*\(The error body stalled\.\)$/,
    },
    {
      name: 'a 200 that is not JSON',
      body: { text: 'hello there', contentType: 'text/plain', streamAsked: true },
      verdict: 'http-error',
      reason: /but the body is text\/plain, not JSON or an event stream\./,
      errorType: 'invalid_response',
    },
    {
      name: 'a 200 with an error body',
      body: { text: '{"type":"error","error":{"type":"overloaded_error","message":"busy"}}' },
      verdict: 'error-event',
      reason: /^HTTP 200 with an error body: busy$/,
      errorType: 'overloaded_error',
    },
    {
      name: 'a 200 with no content, stop reason or usage',
      body: { text: '{"id":"msg_1","type":"message","content":[]}' },
      verdict: 'truncated',
      reason: /holds no content, no stop reason and no usage/,
    },
    {
      name: 'a failed Responses body',
      body: {
        protocol: 'responses',
        text: JSON.stringify({
          id: 'r',
          object: 'response',
          status: 'failed',
          error: { code: 'server_error', message: 'boom' },
          output: [],
        }),
      },
      verdict: 'error-event',
      reason: /boom/,
    },
    {
      name: 'a complete Chat body',
      body: {
        protocol: 'chat',
        text: JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Yo' }, finish_reason: 'stop' }],
        }),
      },
      verdict: 'complete',
      reason: /complete response/,
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const out = documentVerdict({ ...base, ...row.body });
      expect(out.verdict).toBe(row.verdict);
      expect(out.reason).toMatch(row.reason);
      if (row.errorType) expect(out.error?.type).toBe(row.errorType);
      expect(out.rawBody).toBe(row.body.text);
    });
  }

  it('keeps the reply of a complete body and warns when a stream was asked for', () => {
    const out = documentVerdict({ ...base, streamAsked: true, text: message([{ type: 'text', text: 'Hello' }]) });
    expect(out.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello' }]);
    expect(out.warnings).toContain('Asked for a stream; the gateway answered with one JSON body.');
  });
});

describe('the pieces of a cut or silent answer', () => {
  it('reads the reply so far from a body cut inside its text', () => {
    const t = cutDocumentTranscript('messages', '{"type":"message","content":[{"type":"text","text":"Half a sen');
    expect(t.blocks).toEqual([{ kind: 'text', text: 'Half a sen' }]);
  });

  it('says which clock ran out', () => {
    const timeouts = { headersMs: 30_000, idleMs: 5_000 };
    expect(timeoutReason('timeout-headers', timeouts, 0)).toBe('No response headers within 30 s.');
    expect(timeoutReason('timeout-idle', timeouts, 12)).toBe(
      'No bytes for 5 s after 12 events: the stream went quiet.',
    );
  });
});

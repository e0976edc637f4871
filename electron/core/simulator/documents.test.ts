/**
 * The Demo gateway takes documents in each route's own shape, refuses what an upstream refuses (data that is not
 * base64, a media type the route does not take, bytes that are no PDF) with a 400 in the route's envelope, counts
 * them in input tokens (and in count_tokens), and its reply names what it read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './index';
import { PDF_PAGE_TOKENS } from './documents';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
});
afterAll(() => sim.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const H = { 'content-type': 'application/json', 'x-api-key': DEMO_KEY, authorization: `Bearer ${DEMO_KEY}` };
async function post(path: string, body: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(sim.url + path, { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Json };
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R 4 0 R] /Count 2>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R>> endobj\n4 0 obj <</Type /Page /Parent 2 0 R>> endobj\n%%EOF\n',
).toString('base64');
const dataUrl = (type: string, b64: string) => `data:${type};base64,${b64}`;

const messages = (doc: Json, path = '/v1/messages') =>
  post(path, {
    model: 'claude-sim-haiku',
    ...(path === '/v1/messages' ? { max_tokens: 200 } : {}),
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, doc] }],
  });
const chat = (file: Json) =>
  post('/v1/chat/completions', {
    model: 'gpt-sim-4o',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise' },
          { type: 'file', file },
        ],
      },
    ],
  });
const responses = (part: Json) =>
  post('/v1/responses', {
    model: 'gpt-sim-4o',
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Summarise' },
          { type: 'input_file', ...part },
        ],
      },
    ],
  });
const pdfDoc = {
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: PDF },
  title: 'x.pdf',
};
const textOf = (r: { json: Json }) =>
  JSON.stringify(r.json.content ?? r.json.choices ?? r.json.output).replace(/\\"/g, '"');

describe('accepted in each protocol, counted and named in the reply', () => {
  it('Messages: a 2-page PDF document adds its pages to input_tokens, and count_tokens agrees', async () => {
    const plain = await post('/v1/messages', {
      model: 'claude-sim-haiku',
      max_tokens: 200,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }] }],
    });
    const r = await messages(pdfDoc);
    expect(r.status).toBe(200);
    expect(textOf(r)).toContain('I read the 2-page PDF "x.pdf".');
    expect(r.json.usage.input_tokens - plain.json.usage.input_tokens).toBe(2 * PDF_PAGE_TOKENS);
    const count = await messages(pdfDoc, '/v1/messages/count_tokens');
    expect(count.json).toEqual({ input_tokens: r.json.usage.input_tokens });
  });

  it('Messages: a plain-text document is counted as its text', async () => {
    const text = 'word '.repeat(400);
    const r = await messages({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } });
    expect(r.status).toBe(200);
    expect(textOf(r)).toContain('I read the text document "document" (400 words).');
    expect(r.json.usage.input_tokens).toBeGreaterThanOrEqual(500);
  });

  it('Chat Completions: a file part with a PDF data URL', async () => {
    const r = await chat({ filename: 'x.pdf', file_data: dataUrl('application/pdf', PDF) });
    expect(r.status).toBe(200);
    expect(textOf(r)).toContain('I read the 2-page PDF "x.pdf".');
    expect(r.json.usage.prompt_tokens).toBeGreaterThan(2 * PDF_PAGE_TOKENS);
  });

  it('Responses: input_file parts, a PDF and a text file', async () => {
    const r = await post('/v1/responses', {
      model: 'gpt-sim-4o',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_file', filename: 'x.pdf', file_data: dataUrl('application/pdf', PDF) },
            { type: 'input_file', filename: 'n.txt', file_data: dataUrl('text/plain', btoa('one two three')) },
          ],
        },
      ],
    });
    expect(r.status).toBe(200);
    expect(textOf(r)).toContain('I read the 2-page PDF "x.pdf" and the text document "n.txt" (3 words).');
    expect(r.json.usage.input_tokens).toBeGreaterThan(2 * PDF_PAGE_TOKENS);
  });
});

describe('refused as upstream refuses, in the route’s envelope', () => {
  it('Messages: bad base64, a media type other than PDF, bytes that are no PDF', async () => {
    const src = (extra: Json) => ({ type: 'document', source: { ...pdfDoc.source, ...extra } });
    const cases: [Json, RegExp][] = [
      [src({ data: 'not base64!' }), /base64/],
      [src({ media_type: 'image/png' }), /media_type: Input should be 'application\/pdf'/],
      [src({ data: btoa('hello, no PDF here') }), /The PDF specified was not valid/],
      [{ type: 'document', source: { type: 'text', media_type: 'text/html', data: '<p>' } }, /'text\/plain'/],
    ];
    for (const [doc, words] of cases) {
      const r = await messages(doc);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(r.json.error.message).toMatch(words);
      expect((await messages(doc, '/v1/messages/count_tokens')).status).toBe(400);
    }
  });

  it('Chat Completions: a text file, bad base64, no data URL', async () => {
    for (const [file_data, words] of [
      [dataUrl('text/plain', btoa('notes')), /unsupported MIME type 'text\/plain'/],
      [dataUrl('application/pdf', 'JVBER%%'), /base64/],
      [PDF, /not one/],
    ] as const) {
      const r = await chat({ filename: 'x', file_data });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value' });
      expect(r.json.error.message).toMatch(words);
    }
  });

  it('Responses: an image sent as input_file, and a PDF media type over bytes that are no PDF', async () => {
    const png = await responses({ filename: 'a.png', file_data: dataUrl('image/png', btoa('\x89PNG')) });
    expect(png.status).toBe(400);
    expect(png.json.error.message).toMatch(/unsupported type 'image\/png'/);
    const fake = await responses({ filename: 'f.pdf', file_data: dataUrl('application/pdf', btoa('hello')) });
    expect(fake.status).toBe(400);
    expect(fake.json.error.message).toMatch(/not a valid PDF/);
  });

  it('more than 100 pages', async () => {
    const pages = Buffer.from(`%PDF-1.4\n${'1 0 obj <</Type /Page>> endobj\n'.repeat(101)}`).toString('base64');
    const r = await chat({ filename: 'long.pdf', file_data: dataUrl('application/pdf', pages) });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('A maximum of 100 PDF pages may be provided.');
  });
});

/**
 * Documents across protocols: a PDF maps to each protocol's own part; a plain-text document maps where the
 * target takes text files (Messages, Responses) and, on Chat Completions (PDF only), becomes a text part that the
 * loss list names; a file no target shape can carry is in the loss list, not sent to be refused.
 */
import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { lossAt, ok, type Json } from './test-kit';

const PDF = 'JVBERi0xLjQK';
const NOTES = btoa('plain notes');
const user = (content: Json[]) => [{ role: 'user', content }];
const responsesBody = (content: Json[]) => ({ model: 'm', input: [{ role: 'user', content }] });
const content = (body: Json, key = 'messages') => (body[key] as Json[])[0].content as Json[];

describe('a PDF goes out in each protocol’s own shape', () => {
  it('Messages document → Chat file part → Responses input_file, the name carried as title / filename', () => {
    const doc = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
      title: 'a.pdf',
    };
    const chat = ok(translateRequest('messages', 'chat', { model: 'm', max_tokens: 9, messages: user([doc]) }));
    expect(content(chat.body)).toEqual([
      { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' } },
    ]);
    expect(chat.losses.filter((l) => l.path.startsWith('messages'))).toEqual([]);
    const responses = ok(translateRequest('chat', 'responses', chat.body));
    expect(((responses.body.input as Json[])[0].content as Json[])[0]).toEqual({
      type: 'input_file',
      file_data: `data:application/pdf;base64,${PDF}`,
      filename: 'a.pdf',
    });
    const back = ok(translateRequest('responses', 'messages', responses.body));
    expect(content(back.body)).toEqual([doc]);
  });
});

describe('plain text', () => {
  it('a Responses text input_file becomes a Messages text document, not a loss', () => {
    const r = ok(
      translateRequest(
        'responses',
        'messages',
        responsesBody([{ type: 'input_file', filename: 'n.txt', file_data: `data:text/plain;base64,${NOTES}` }]),
      ),
    );
    expect(content(r.body)).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' }, title: 'n.txt' },
    ]);
    expect(lossAt(r.losses, 'input[0].content[0]')).toBeUndefined();
  });

  it('on Chat Completions (PDF file parts only) a text file becomes a text part, and the loss list says so', () => {
    const r = ok(
      translateRequest(
        'responses',
        'chat',
        responsesBody([{ type: 'input_file', filename: 'n.txt', file_data: `data:text/plain;base64,${NOTES}` }]),
      ),
    );
    expect(content(r.body)).toEqual([{ type: 'text', text: 'plain notes' }]);
    expect(lossAt(r.losses, 'input[0].content[0]')).toMatchObject({
      kind: 'changed',
      reason: expect.stringContaining('PDFs only') as unknown,
    });
  });

  it('a Messages text document on Chat Completions is a text part, listed as changed', () => {
    const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } };
    const r = ok(translateRequest('messages', 'chat', { model: 'm', max_tokens: 9, messages: user([doc]) }));
    expect(content(r.body)).toEqual([{ type: 'text', text: 'plain notes' }]);
    expect(lossAt(r.losses, 'messages[0].content[0]')).toMatchObject({ kind: 'changed' });
  });

  it('a file no Chat Completions part can carry (a CSV, text that is not UTF-8) is lost, named in the list', () => {
    const r = ok(
      translateRequest(
        'responses',
        'chat',
        responsesBody([
          { type: 'input_text', text: 'see' },
          { type: 'input_file', filename: 'a.csv', file_data: `data:text/csv;base64,${btoa('a,b')}` },
          { type: 'input_file', filename: 'b.txt', file_data: 'data:text/plain;base64,/w==' },
        ]),
      ),
    );
    expect(content(r.body)).toEqual([{ type: 'text', text: 'see' }]);
    expect(lossAt(r.losses, 'input[0].content[1]')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'input[0].content[1]')!.reason).toContain('text/csv');
    expect(lossAt(r.losses, 'input[0].content[2]')).toMatchObject({ kind: 'lost' });
  });
});

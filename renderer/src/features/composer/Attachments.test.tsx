/**
 * Documents and paste/drop in the composer: a PDF or text goes out in each protocol's own part shape, shows as a
 * chip (name, type, size) that can be removed, and what a protocol cannot take is refused in words. A paste or a
 * drop with files attaches exactly as the Attach buttons do. Only the transport is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from './Composer';
import { useAppStore } from '../../store';
import { resetGateway } from '../../test/fake-gateway';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { documentSizeProblem } from './document-parts';

type Body = Record<string, unknown>;
const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
});
afterEach(cleanup);

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R>> endobj\n%%EOF\n',
);
const PDF_B64 = Buffer.from(PDF).toString('base64');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const settle = () => new Promise((r) => setTimeout(r, 30));
async function attachDocument(bytes: Uint8Array<ArrayBuffer>, name: string, type = '') {
  const file = new File([bytes], name, { type });
  await act(async () => {
    fireEvent.change(screen.getByLabelText('Attach document'), { target: { files: [file] } });
    await settle();
  });
}
const lastContent = (protocol: ProtocolId) => {
  const body = useAppStore.getState().composers[protocol].body;
  const turns = (protocol === 'responses' ? body.input : body.messages) as Body[];
  return turns.at(-1)!.content as Body[];
};

describe('Attach document: each protocol’s own shape', () => {
  it('Messages: a document block with base64 PDF source and the file name as its title', async () => {
    render(<Composer protocol="messages" />);
    await attachDocument(PDF, 'spec.pdf', 'application/pdf');
    expect(lastContent('messages').at(-1)).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF_B64 },
      title: 'spec.pdf',
    });
  });

  it('Messages: plain text goes as a text-source document, sniffed from the bytes whatever the name', async () => {
    render(<Composer protocol="messages" />);
    await attachDocument(new TextEncoder().encode('meeting notes: café'), 'notes.bin');
    expect(lastContent('messages').at(-1)).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'meeting notes: café' },
      title: 'notes.bin',
    });
  });

  it('Chat Completions: a file part with filename and a PDF data URL', async () => {
    render(<Composer protocol="chat" />);
    await attachDocument(PDF, 'spec.pdf');
    expect(lastContent('chat').at(-1)).toEqual({
      type: 'file',
      file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF_B64}` },
    });
  });

  it('Responses: an input_file part with filename and a data URL, for a PDF and for text', async () => {
    render(<Composer protocol="responses" />);
    await attachDocument(PDF, 'spec.pdf');
    await attachDocument(new TextEncoder().encode('a,b\n1,2\n'), 'table.csv');
    expect(lastContent('responses').slice(-2)).toEqual([
      { type: 'input_file', filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF_B64}` },
      { type: 'input_file', filename: 'table.csv', file_data: `data:text/plain;base64,${btoa('a,b\n1,2\n')}` },
    ]);
  });
});

describe('the chip and the refusals', () => {
  it('shows name, type and size, and its button takes the document out but leaves the text', async () => {
    render(<Composer protocol="messages" />);
    const turnsBefore = (useAppStore.getState().composers.messages.body.messages as Body[]).length;
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Summarise this' } });
    await attachDocument(PDF, 'spec.pdf');
    const n = turnsBefore + 1;
    const chip = screen.getByRole('group', { name: `Turn ${n} document 1: spec.pdf` });
    expect(chip.textContent).toBe(`spec.pdf · PDF · ${PDF.length} B✕`);
    expect(screen.getByLabelText(`Turn ${n} text`)).toHaveProperty('value', 'Summarise this');
    fireEvent.click(screen.getByRole('button', { name: `Remove turn ${n} document 1` }));
    expect(screen.queryByRole('group', { name: /document 1/ })).toBeNull();
    expect(lastContent('messages')).toEqual([{ type: 'text', text: 'Summarise this' }]);
  });

  it('refuses a binary that is neither PDF nor text, and the conversation stays as it was', async () => {
    render(<Composer protocol="messages" />);
    const before = useAppStore.getState().composers.messages.body;
    await attachDocument(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), 'book.docx');
    expect(screen.getByRole('alert').textContent).toBe(
      'book.docx: This file is not a PDF or plain text (UTF-8), so it was not attached.',
    );
    expect(useAppStore.getState().composers.messages.body).toBe(before);
  });

  it('refuses plain text on Chat Completions, whose file parts take PDFs only', async () => {
    render(<Composer protocol="chat" />);
    const before = useAppStore.getState().composers.chat.body;
    await attachDocument(new TextEncoder().encode('notes'), 'notes.txt');
    expect(screen.getByRole('alert').textContent).toMatch(/^notes\.txt: Chat Completions takes PDF files only/);
    expect(useAppStore.getState().composers.chat.body).toBe(before);
  });

  it('refuses a PDF over the 32 MB a request may carry, saying its size and the limit', async () => {
    render(<Composer protocol="responses" />);
    const big = new Uint8Array(33 * 1024 * 1024);
    big.set(PDF);
    await attachDocument(big, 'huge.pdf');
    expect(screen.getByRole('alert').textContent).toBe(
      'huge.pdf: It is 33.0 MB: Responses takes at most 32.0 MB per request, so it was not attached.',
    );
  });

  it('refuses a PDF of more than 100 pages', async () => {
    render(<Composer protocol="messages" />);
    const pages = '3 0 obj <</Type /Page>> endobj\n'.repeat(101);
    await attachDocument(new TextEncoder().encode(`%PDF-1.4\n${pages}%%EOF`), 'long.pdf');
    expect(screen.getByRole('alert').textContent).toBe(
      'long.pdf: It has 101 pages: Messages takes at most 100 PDF pages per request, so it was not attached.',
    );
  });
});

describe('a body over the limits (from a preset, curl or History) is flagged before Send', () => {
  it('Chat Completions: PDFs of 120 pages in all, over the 100 a request may carry', () => {
    const pages = (n: number) => btoa(`%PDF-1.4\n${'1 0 obj <</Type /Page>> endobj\n'.repeat(n)}%%EOF`);
    const file = (name: string, n: number) => ({
      type: 'file',
      file: { filename: name, file_data: `data:application/pdf;base64,${pages(n)}` },
    });
    useAppStore.getState().composerBodyEdited('chat', {
      model: 'm',
      messages: [{ role: 'user', content: [file('a.pdf', 60), file('b.pdf', 60)] }],
    });
    render(<Composer protocol="chat" />);
    expect(screen.getByLabelText('Document size').textContent).toBe(
      'The PDFs have 120 pages in all: Chat Completions takes at most 100 pages per request, so the gateway will likely refuse it.',
    );
  });

  it('Messages: a request over 32 MB in all, counted as the JSON that goes out', () => {
    const data = 'a'.repeat(33 * 1024 * 1024);
    const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data } };
    const body = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: [doc] }] };
    expect(documentSizeProblem('messages', body)).toMatch(
      /^This request is 33\.0 MB: Messages takes at most 32\.0 MB per request/,
    );
    expect(documentSizeProblem('responses', { model: 'm', input: 'hi' })).toBeUndefined();
  });
});

describe('paste and drop', () => {
  it('a pasted PNG from the clipboard attaches as an image, and the text paste default is kept off', async () => {
    render(<Composer protocol="messages" />);
    const file = new File([PNG], 'image.png', { type: 'image/png' });
    let event!: Event;
    await act(async () => {
      const box = screen.getByRole('textbox', { name: 'Message' });
      event = new Event('paste', { bubbles: true, cancelable: true });
      Object.assign(event, { clipboardData: { files: [file], types: ['Files'] } });
      box.dispatchEvent(event);
      await settle();
    });
    expect(event.defaultPrevented).toBe(true);
    expect(lastContent('messages').at(-1)).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: btoa('\x89PNG\r\n\x1a\n') },
    });
    expect(screen.getAllByRole('img').length).toBeGreaterThan(0);
  });

  it('a paste of text alone is left to the text box', async () => {
    render(<Composer protocol="messages" />);
    const before = useAppStore.getState().composers.messages.body;
    const event = new Event('paste', { bubbles: true, cancelable: true });
    Object.assign(event, { clipboardData: { files: [], types: ['text/plain'] } });
    screen.getByRole('textbox', { name: 'Message' }).dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(useAppStore.getState().composers.messages.body).toBe(before);
  });

  it('a PDF dropped on the conversation attaches as the protocol’s document', async () => {
    render(<Composer protocol="chat" />);
    const region = screen.getByRole('region', { name: 'Turns' });
    const file = new File([PDF], 'dropped.pdf', { type: 'application/pdf' });
    const over = new Event('dragover', { bubbles: true, cancelable: true });
    Object.assign(over, { dataTransfer: { files: [], types: ['Files'] } });
    region.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    await act(async () => {
      fireEvent.drop(region, { dataTransfer: { files: [file], types: ['Files'] } });
      await settle();
    });
    expect(lastContent('chat').at(-1)).toEqual({
      type: 'file',
      file: { filename: 'dropped.pdf', file_data: `data:application/pdf;base64,${PDF_B64}` },
    });
    expect(screen.getByRole('group', { name: /document 1: dropped\.pdf$/ })).toBeTruthy();
  });
});

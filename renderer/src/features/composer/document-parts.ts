/**
 * Documents in a turn, in each protocol's own part shape (docs/protocols.md §8.1): a Messages `document` block, a
 * Chat Completions `file` part, a Responses `input_file` part. Reading them back for the turn's chips, writing
 * a new one, and the protocol's limits in a sentence, before anything is attached or sent.
 */
import {
  DOCUMENT_LIMITS,
  encodeBase64,
  isBase64,
  pdfPages,
  pdfPagesInText,
  sizeText,
  type DocumentType,
} from '../../../../shared/documents';
import type { ProtocolId } from '../../../../shared/protocols/types';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A document as a chip shows it: its name, its type and its size in bytes. */
export interface DocumentView {
  name: string;
  mediaType: string;
  bytes: number;
}

/** An attached file whose bytes were sniffed. */
export interface DocumentFile {
  name: string;
  type: DocumentType;
  bytes: Uint8Array;
}

const PROTOCOL_NAME: Record<ProtocolId, string> = {
  messages: 'Messages',
  chat: 'Chat Completions',
  responses: 'Responses',
};

/** The bytes a base64 string (or a data: URL's base64) decodes to, without decoding it. */
function base64Bytes(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - pad);
}

function fromDataUrl(url: unknown): { mediaType: string; b64: string } | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1], b64: m[2] } : undefined;
}

const utf8Length = (s: string) => new TextEncoder().encode(s).length;
const str = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** The document a content part carries, in any family's shape; undefined for any other part. */
export function documentOf(p: unknown): DocumentView | undefined {
  if (!isObj(p)) return undefined;
  if (p.type === 'document' && isObj(p.source)) {
    const name = str(p.title, 'document');
    const { source } = p;
    if (source.type === 'base64' && typeof source.data === 'string')
      return { name, mediaType: str(source.media_type, 'application/pdf'), bytes: base64Bytes(source.data) };
    if (source.type === 'text' && typeof source.data === 'string')
      return { name, mediaType: str(source.media_type, 'text/plain'), bytes: utf8Length(source.data) };
    if (source.type === 'url' && typeof source.url === 'string') return { name, mediaType: 'URL', bytes: 0 };
    return undefined;
  }
  const file = p.type === 'file' && isObj(p.file) ? p.file : p.type === 'input_file' ? p : undefined;
  if (!file) return undefined;
  const data = fromDataUrl(file.file_data);
  const name = str(file.filename, 'file');
  if (data) return { name, mediaType: data.mediaType, bytes: base64Bytes(data.b64) };
  return { name, mediaType: typeof file.file_url === 'string' ? 'URL' : 'file id', bytes: 0 };
}

/** The part that carries `doc` in the protocol's own shape. */
export function documentPart(protocol: ProtocolId, doc: DocumentFile): Json {
  const dataUrl = () => `data:${doc.type};base64,${encodeBase64(doc.bytes)}`;
  if (protocol === 'messages')
    return {
      type: 'document',
      source:
        doc.type === 'application/pdf'
          ? { type: 'base64', media_type: doc.type, data: encodeBase64(doc.bytes) }
          : { type: 'text', media_type: doc.type, data: new TextDecoder().decode(doc.bytes) },
      title: doc.name,
    };
  if (protocol === 'chat') return { type: 'file', file: { filename: doc.name, file_data: dataUrl() } };
  return { type: 'input_file', filename: doc.name, file_data: dataUrl() };
}

/** Every document part of a body, with a PDF's pages (read with the browser's own base64 decoder, fast). */
function documentsIn(body: Json): { view: DocumentView; pages: number }[] {
  const found: { view: DocumentView; pages: number }[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isObj(v)) return;
    const view = documentOf(v);
    if (!view) return Object.values(v).forEach(visit);
    const b64 = isObj(v.source)
      ? v.source.type === 'base64' && typeof v.source.data === 'string'
        ? v.source.data
        : undefined
      : fromDataUrl(isObj(v.file) ? v.file.file_data : v.file_data)?.b64;
    const pdf = view.mediaType === 'application/pdf' && b64 && isBase64(b64);
    found.push({ view, pages: pdf ? pdfPagesInText(atob(b64)) : 0 });
  };
  visit(body.messages);
  visit(body.input);
  return found;
}

/** Why `doc` cannot be attached on this protocol, in a sentence, or undefined when it can. */
export function documentRefusal(protocol: ProtocolId, doc: DocumentFile): string | undefined {
  const limit = DOCUMENT_LIMITS[protocol];
  const name = PROTOCOL_NAME[protocol];
  if (!limit.types.includes(doc.type))
    return `${name} takes PDF files only, not plain text, so it was not attached; Messages and Responses take text documents.`;
  if (doc.bytes.length > limit.bytes)
    return `It is ${sizeText(doc.bytes.length)}: ${name} takes at most ${sizeText(limit.bytes)} per request, so it was not attached.`;
  if (doc.type === 'application/pdf' && pdfPages(doc.bytes) > limit.pages)
    return `It has ${pdfPages(doc.bytes)} pages: ${name} takes at most ${limit.pages} PDF pages per request, so it was not attached.`;
  return undefined;
}

/**
 * What goes over the protocol's document limits in this body, in a sentence, or undefined. It reads every
 * attached PDF: call it once per body, not per render.
 */
export function documentSizeProblem(protocol: ProtocolId, body: Json): string | undefined {
  const docs = documentsIn(body);
  if (!docs.length) return undefined;
  const limit = DOCUMENT_LIMITS[protocol];
  const name = PROTOCOL_NAME[protocol];
  const size = limit.of === 'request' ? utf8Length(JSON.stringify(body)) : docs.reduce((a, d) => a + d.view.bytes, 0);
  if (size > limit.bytes) {
    const what = limit.of === 'request' ? 'This request is' : 'The documents add up to';
    return `${what} ${sizeText(size)}: ${name} takes at most ${sizeText(limit.bytes)} ${limit.of === 'request' ? 'per request' : 'of files per request'}, so the gateway will likely refuse it.`;
  }
  const pages = docs.reduce((a, d) => a + d.pages, 0);
  if (pages > limit.pages)
    return `The PDFs have ${pages} pages in all: ${name} takes at most ${limit.pages} pages per request, so the gateway will likely refuse it.`;
  return undefined;
}

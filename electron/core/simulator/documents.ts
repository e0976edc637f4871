/**
 * Documents in a request, read as an upstream reads them (docs/protocols.md §8.1): a Messages `document` block, a
 * Chat Completions `file` part, a Responses `input_file` part. What an upstream refuses (data that is not base64,
 * a media type the route does not take, bytes that are not a PDF, too many pages) is a 400 in the route's own
 * envelope; what it takes is counted in input tokens and named in the reply, so a user sees it arrived.
 */
import { DOCUMENT_LIMITS, isBase64, pdfPages, sniffDocument } from '../../../shared/documents';
import type { ProtocolId } from '../../../shared/protocols/types';
import { RequestError } from './conversation';
import { textTokens } from './tokens';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export interface SimDocument {
  name: string;
  pages?: number;
  /** Plain text documents only. */
  text?: string;
}

/** Tokens per PDF page: each page goes in as its text and an image (Anthropic quotes 1,500–3,000 a page). */
export const PDF_PAGE_TOKENS = 1500;

export function documentTokens(d: SimDocument): number {
  return d.pages !== undefined ? d.pages * PDF_PAGE_TOKENS : textTokens(d.text ?? '');
}

/** Node's own decoder, once the string is known to be strict base64 (Node's alone would take anything). */
const decodeBase64 = (s: string) => (isBase64(s) ? new Uint8Array(Buffer.from(s, 'base64')) : undefined);

const bad = (message: string, code = 'invalid_value') => new RequestError(400, 'invalid_request_error', message, code);

/** A PDF's bytes checked as an upstream checks them: a PDF at all, and within the page limit. */
function pdf(bytes: Uint8Array, name: string, protocol: ProtocolId): SimDocument {
  if (sniffDocument(bytes) !== 'application/pdf')
    throw bad(protocol === 'messages' ? 'The PDF specified was not valid.' : `The file '${name}' is not a valid PDF.`);
  const pages = pdfPages(bytes);
  const max = DOCUMENT_LIMITS[protocol].pages;
  if (pages > max) throw bad(`A maximum of ${max} PDF pages may be provided.`);
  return { name, pages };
}

function messagesDocument(part: Json): SimDocument | undefined {
  const src = isObj(part.source) ? part.source : {};
  const name = typeof part.title === 'string' && part.title ? part.title : 'document';
  const where = `document.source.${String(src.type)}`;
  if (src.type === 'base64') {
    if (src.media_type !== 'application/pdf') throw bad(`${where}.media_type: Input should be 'application/pdf'`);
    const bytes = typeof src.data === 'string' ? decodeBase64(src.data) : undefined;
    if (!bytes) throw bad(`${where}.data: The document's base64 data is not valid base64.`);
    return pdf(bytes, name, 'messages');
  }
  if (src.type === 'text') {
    if (src.media_type !== 'text/plain') throw bad(`${where}.media_type: Input should be 'text/plain'`);
    if (typeof src.data !== 'string') throw bad(`${where}.data: Input should be a valid string`);
    return { name, text: src.data };
  }
  return undefined;
}

const OPENAI_TEXT = /^(text\/[\w.+-]+|application\/json)$/;

/** A data URL's file, checked as the OpenAI routes check `file_data`. */
function openaiFile(fileData: unknown, name: string, protocol: 'chat' | 'responses'): SimDocument {
  const expected =
    protocol === 'chat' ? 'a base64-encoded data URL with an application/pdf MIME type' : 'a base64-encoded data URL';
  const m = typeof fileData === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(fileData) : null;
  if (!m) throw bad(`Invalid file data: 'file_data'. Expected ${expected}, but got a value that is not one.`);
  const bytes = decodeBase64(m[2]);
  if (!bytes) throw bad(`Invalid file data: 'file_data'. Expected ${expected}, but the base64 is not valid.`);
  const mediaType = m[1];
  if (mediaType === 'application/pdf') return pdf(bytes, name, protocol);
  if (protocol === 'responses' && OPENAI_TEXT.test(mediaType) && sniffDocument(bytes) === 'text/plain')
    return { name, text: new TextDecoder().decode(bytes) };
  throw bad(
    protocol === 'chat'
      ? `Invalid file data: 'file_data'. Expected ${expected}, but got unsupported MIME type '${mediaType}'.`
      : `Invalid input: the file '${name}' has an unsupported type '${mediaType}' for input_file.`,
  );
}

/** The document a content part carries on this route, or undefined for any other part (or a file id / URL). */
export function readDocument(part: Json, protocol: ProtocolId): SimDocument | undefined {
  if (protocol === 'messages' && part.type === 'document') return messagesDocument(part);
  if (protocol === 'chat' && part.type === 'file' && isObj(part.file) && part.file.file_data !== undefined) {
    const name = typeof part.file.filename === 'string' ? part.file.filename : 'file';
    return openaiFile(part.file.file_data, name, 'chat');
  }
  if (protocol === 'responses' && part.type === 'input_file' && part.file_data !== undefined) {
    const name = typeof part.filename === 'string' ? part.filename : 'file';
    return openaiFile(part.file_data, name, 'responses');
  }
  return undefined;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** What the reply says it read: `I read the 2-page PDF "x.pdf" and the text document "n.txt" (12 words).` */
export function documentReply(docs: SimDocument[]): string {
  const each = docs.map((d) =>
    d.pages !== undefined
      ? `the ${d.pages}-page PDF "${d.name}"`
      : `the text document "${d.name}" (${words(d.text ?? '')} words)`,
  );
  const list = each.length > 1 ? `${each.slice(0, -1).join(', ')} and ${each.at(-1)}` : each[0];
  return `I read ${list}.`;
}

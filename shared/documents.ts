/**
 * Documents attached to a turn (a PDF or plain text): what the bytes are, how many pages a PDF has, strict
 * base64, and the limits each protocol documents (docs/protocols.md §8.1). Shared by the composer, which refuses a
 * file before it is attached, and the Demo gateway, which refuses what an upstream refuses.
 */
import type { ProtocolId } from './protocols/types';

export type DocumentType = 'application/pdf' | 'text/plain';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * What the bytes are, never the name or the browser's guess: a PDF starts with `%PDF-`; plain text is valid
 * UTF-8 with no NUL byte (binaries nearly always hold one) and is not empty.
 */
export function sniffDocument(b: Uint8Array): DocumentType | undefined {
  if (b.length >= PDF_MAGIC.length && PDF_MAGIC.every((x, i) => b[i] === x)) return 'application/pdf';
  if (b.length === 0 || b.includes(0)) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return 'text/plain';
  } catch {
    return undefined;
  }
}

/**
 * The pages of a PDF, counted as its page objects (`/Type /Page`, not `/Pages`). A compressed object stream can
 * hide them; then the count is 1, the least a PDF has.
 */
export function pdfPages(b: Uint8Array): number {
  let text = '';
  for (let i = 0; i < b.length; i += 0x8000) text += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return pdfPagesInText(text);
}

/** `pdfPages` of a PDF held as a binary string (one character a byte, as `atob` gives it). */
export function pdfPagesInText(binary: string): number {
  return Math.max(1, (binary.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/** Whether a string is strict base64: padded, no whitespace, as the APIs take it. */
export const isBase64 = (s: string) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s);

/** The bytes of strict base64, or undefined when it is not. */
export function decodeBase64(s: string): Uint8Array | undefined {
  if (!isBase64(s)) return undefined;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    const n =
      (B64_VALUE.get(s[i])! << 18) |
      (B64_VALUE.get(s[i + 1])! << 12) |
      ((B64_VALUE.get(s[i + 2]) ?? 0) << 6) |
      (B64_VALUE.get(s[i + 3]) ?? 0);
    for (const byte of [(n >> 16) & 255, (n >> 8) & 255, n & 255]) if (o < out.length) out[o++] = byte;
  }
  return out;
}

/** Base64 of bytes (no line breaks). */
export function encodeBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    s += i + 1 < b.length ? B64[(n >> 6) & 63] : '=';
    s += i + 2 < b.length ? B64[n & 63] : '=';
  }
  return s;
}

const MB = 1024 * 1024;

/**
 * The documented limits (docs/protocols.md §8.1): Messages takes a request of at most 32 MB in all and at most 100
 * PDF pages (models with a 200k window); the OpenAI PDF guide allows 32 MB of file content and 100 pages per
 * request, across all files. Chat Completions file parts take PDFs only.
 */
export const DOCUMENT_LIMITS: Record<
  ProtocolId,
  { bytes: number; of: 'request' | 'files'; pages: number; types: DocumentType[] }
> = {
  messages: { bytes: 32 * MB, of: 'request', pages: 100, types: ['application/pdf', 'text/plain'] },
  chat: { bytes: 32 * MB, of: 'files', pages: 100, types: ['application/pdf'] },
  responses: { bytes: 32 * MB, of: 'files', pages: 100, types: ['application/pdf', 'text/plain'] },
};

/** A size in words: "812 B", "14.2 KB", "3.0 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}

/** The text a base64 string holds, or undefined when it is not base64 of valid UTF-8. */
export function base64Text(b64: string): string | undefined {
  const bytes = decodeBase64(b64);
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Base64 of a text's UTF-8 bytes. */
export const textBase64 = (text: string) => encodeBase64(new TextEncoder().encode(text));

import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64, pdfPages, sizeText, sniffDocument } from './documents';

const bytes = (s: string) => new TextEncoder().encode(s);
const twoPages = bytes(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj <</Type/Page/Parent 2 0 R>> endobj\n%%EOF\n',
);

describe('sniffDocument: the bytes decide', () => {
  it('knows a PDF by its %PDF- signature, whatever follows', () => {
    expect(sniffDocument(twoPages)).toBe('application/pdf');
    expect(sniffDocument(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 0xff]))).toBe('application/pdf');
  });

  it('takes valid UTF-8 without NULs as plain text', () => {
    expect(sniffDocument(bytes('notes: café, 日本語\n'))).toBe('text/plain');
  });

  it('refuses a binary (a NUL byte), invalid UTF-8, and an empty file', () => {
    expect(sniffDocument(bytes('abc\0def'))).toBeUndefined();
    expect(sniffDocument(new Uint8Array([0x61, 0xc3, 0x28]))).toBeUndefined();
    expect(sniffDocument(new Uint8Array())).toBeUndefined();
    expect(sniffDocument(bytes('%PDF'))).toBe('text/plain');
  });
});

describe('pdfPages', () => {
  it('counts page objects, not the page tree', () => {
    expect(pdfPages(twoPages)).toBe(2);
  });
  it('says at least one page when the pages are hidden in a compressed stream', () => {
    expect(pdfPages(bytes('%PDF-1.7\n1 0 obj <</Type /ObjStm>> stream\nxx\nendstream'))).toBe(1);
  });
});

describe('base64', () => {
  it('round-trips every length of padding', () => {
    for (const s of ['', 'a', 'ab', 'abc', 'abcd', '%PDF-1.4 ÿ']) {
      const b = bytes(s);
      const enc = encodeBase64(b);
      expect(enc).toBe(Buffer.from(b).toString('base64'));
      expect(decodeBase64(enc)).toEqual(b);
    }
  });
  it('refuses what an API refuses: stray characters, missing padding, whitespace', () => {
    expect(decodeBase64('JVBER*==')).toBeUndefined();
    expect(decodeBase64('JVBERi0')).toBeUndefined();
    expect(decodeBase64('JVBE Ri0x')).toBeUndefined();
    expect(decodeBase64('not base64!')).toBeUndefined();
  });
});

it('sizeText reads as a person would', () => {
  expect(sizeText(812)).toBe('812 B');
  expect(sizeText(14_540)).toBe('14.2 KB');
  expect(sizeText(3 * 1024 * 1024)).toBe('3.0 MB');
});

import { describe, expect, it } from 'vitest';
import { keyWatchingDecoder, scrub } from './gateway-client';

const KEY = 'sk-live-0123456789abcdef';

describe('keyWatchingDecoder', () => {
  it('sees a key split across two chunks at any byte, by the time its last byte is decoded', () => {
    const body = Buffer.from(`data: {"text":"é ${KEY}"}\n\n`);
    const start = body.indexOf(KEY);
    for (let cut = start; cut <= start + KEY.length; cut++) {
      const d = keyWatchingDecoder(KEY);
      const text = d.write(body.subarray(0, cut));
      expect(d.sawKey).toBe(cut === start + KEY.length);
      expect(text + d.write(body.subarray(cut)) + d.end()).toBe(body.toString());
      expect(d.sawKey).toBe(true);
    }
  });

  it('sees a key spread over many one-byte chunks, and never one that is not there', () => {
    const d = keyWatchingDecoder(KEY);
    for (const byte of Buffer.from(`x${KEY}y`)) d.write(Uint8Array.of(byte));
    expect(d.sawKey).toBe(true);
    const clean = keyWatchingDecoder(KEY);
    clean.write(Buffer.from(`data: ${KEY.slice(0, -1)}`));
    clean.write(Buffer.from('X\n\n'));
    expect(clean.sawKey).toBe(false);
    expect(keyWatchingDecoder(undefined).write(Buffer.from(KEY))).toBe(KEY);
  });

  it('scrub replaces every occurrence', () => {
    expect(scrub(`${KEY} and ${KEY}`, KEY)).toBe('[redacted] and [redacted]');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { streamScrubber } from './scrub-stream';

const KEY = 'sk-stream/KEY+0123456789';

/** Every chunk through the scrubber, as the agent would receive them, joined. */
function pass(secrets: string[], chunks: (string | Uint8Array)[]): { out: Buffer; parts: Buffer[] } {
  const s = streamScrubber(secrets);
  const parts = chunks.map((c) => Buffer.from(s.write(typeof c === 'string' ? Buffer.from(c) : c)));
  parts.push(Buffer.from(s.end()));
  return { out: Buffer.concat(parts), parts };
}

describe('the agent endpoint scrubs a streamed answer on its way', () => {
  it('passes bytes without a secret unchanged, invalid UTF-8 included, and whole lines at once', () => {
    const odd = Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a, 0x0a]);
    const { out, parts } = pass([KEY], ['event: a\ndata: {"x":1}\n\n', odd]);
    expect(out.equals(Buffer.concat([Buffer.from('event: a\ndata: {"x":1}\n\n'), odd]))).toBe(true);
    expect(parts[0]!.toString()).toBe('event: a\ndata: {"x":1}\n\n');
  });

  it('takes out a secret split across chunks, before any of it is passed on', () => {
    const line = `data: {"text":"echo ${KEY}"}\n\n`;
    const at = line.indexOf(KEY) + 5;
    const { out, parts } = pass([KEY], [line.slice(0, at), line.slice(at)]);
    expect(parts[0]!.toString()).toBe('');
    expect(out.toString()).toBe('data: {"text":"echo [redacted]"}\n\n');
  });

  it('passes a huge single line on before its end, still without the secret', () => {
    const filler = 'a'.repeat(1024 * 1024 + 10);
    const { out, parts } = pass([KEY], [`{"t":"${filler}${KEY.slice(0, 6)}`, `${KEY.slice(6)}"}`]);
    expect(parts[0]!.length).toBeGreaterThan(1024 * 1024 - 1000);
    expect(out.toString()).toBe(`{"t":"${filler}[redacted]"}`);
  });

  it('passes an event stream whose lines end in a lone CR on at once', () => {
    const events = 'event: a\rdata: {"x":1}\r\r';
    const { parts } = pass([KEY], [events, `data: ${KEY}\r\r`]);
    expect(parts[0]!.toString()).toBe(events);
    expect(parts[1]!.toString()).toBe('data: [redacted]\r\r');
  });

  it('joins a long line sent in small chunks once, not once per chunk', () => {
    const chunks = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? KEY : 'a'.repeat(500)));
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const { out } = pass([KEY], chunks);
      expect(out.toString()).toBe(chunks.join('').replace(KEY, '[redacted]'));
      expect(concat.mock.calls.length).toBeLessThan(20);
    } finally {
      concat.mockRestore();
    }
  });
});

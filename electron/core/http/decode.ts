/**
 * Bodies a gateway compressed unasked (it is never asked to) are inflated here, as leniently as browsers and
 * curl decode them.
 */
import { pipeline, Readable, Transform } from 'node:stream';
import {
  constants as zlibConstants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
} from 'node:zlib';

/*
 * Compressed bodies are decoded as leniently as browsers and curl decode them (undici's fetch does the same):
 * a gzip stream without its trailer, or flushed but never finished, still gives the text that arrived.
 */
const SYNC = { flush: zlibConstants.Z_SYNC_FLUSH, finishFlush: zlibConstants.Z_SYNC_FLUSH };
const BROTLI = { flush: zlibConstants.BROTLI_OPERATION_FLUSH, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH };

/** `deflate` as servers send it: zlib-wrapped per the RFC, or raw deflate as some servers do. */
class AnyInflate extends Transform {
  private inner: Transform | undefined;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.inner) {
      if (chunk.length === 0) return done();
      // A zlib header's first byte says "deflate" in its low four bits; raw deflate has no header.
      const inner = (chunk[0] & 0x0f) === 0x08 ? createInflate(SYNC) : createInflateRaw(SYNC);
      this.inner = inner;
      // Back-pressure passes through: a small compressed chunk can inflate a thousandfold, and nothing may
      // pile up faster than the reader takes it.
      inner.on('data', (out: Buffer) => {
        if (!this.push(out)) inner.pause();
      });
      inner.on('error', (err) => this.destroy(err));
    }
    this.inner.write(chunk, done);
  }
  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }
  override _flush(done: (err?: Error | null) => void): void {
    if (!this.inner) return done();
    this.inner.once('end', () => done());
    this.inner.end();
  }
  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.inner?.destroy();
    done(err);
  }
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(SYNC),
  'x-gzip': () => createGunzip(SYNC),
  deflate: () => new AnyInflate(),
  br: () => createBrotliDecompress(BROTLI),
};

/** More layers than this is a decompression bomb, not an answer (curl and undici draw the same line). */
const MAX_ENCODINGS = 5;

/**
 * The body with every content encoding undone, last applied first; a body with an encoding this does not know
 * is left as it came. Throws (code `ERR_CONTENT_DECODING`) past MAX_ENCODINGS layers.
 */
export function decodedBody(
  body: AsyncIterable<Uint8Array>,
  contentEncoding: string | undefined,
): AsyncIterable<Uint8Array> {
  // Nearly every answer names no encoding: it skips the split (asked once per request of a load run).
  if (contentEncoding === undefined || contentEncoding === '') return body;
  // A 204 or an empty 200 labelled gzip decodes to nothing, as the decoders are lenient (above).
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  if (encodings.length > MAX_ENCODINGS) {
    const list = encodings.join(', ');
    throw Object.assign(
      new Error(
        `the answer is labelled with ${encodings.length} content encodings (${list}); ` +
          `more than ${MAX_ENCODINGS} are not decoded`,
      ),
      { code: 'ERR_CONTENT_DECODING' },
    );
  }
  if (encodings.length === 0 || !encodings.every((e) => Object.hasOwn(DECODERS, e))) return body;
  let out: Readable = Readable.from(body, { objectMode: false });
  for (const e of encodings.reverse()) out = pipeline(out, DECODERS[e](), () => undefined);
  return out;
}

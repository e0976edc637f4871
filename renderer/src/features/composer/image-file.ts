/**
 * Images attached to a turn: what the bytes are (never the file's name or the browser's guess), and the
 * protocols' size limits, so a file that is not an image is refused and an image too big is said before Send.
 */
import type { ProtocolId } from '../../../../shared/protocols/types';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export const NOT_AN_IMAGE = 'This file is not a PNG, JPEG, GIF or WebP image, so it was not attached.';

const startsWith = (b: Uint8Array, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type the bytes' signature names, or undefined when it is none of the four every protocol takes. */
export function sniffImage(b: Uint8Array): ImageType | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

const MB = 1024 * 1024;

/**
 * The documented limits (docs/protocols.md §1.3, §3.2, §4.1): Messages takes at most 5 MB per image over the
 * API; Chat Completions and Responses take at most 50 MB of images per request.
 */
export const IMAGE_LIMITS: Record<ProtocolId, { perImage?: number; perRequest?: number }> = {
  messages: { perImage: 5 * MB },
  chat: { perRequest: 50 * MB },
  responses: { perRequest: 50 * MB },
};

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

/** The bytes a base64 string (or a data: URL's base64) decodes to. */
function decodedBytes(data: string): number {
  const b64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - pad;
}

/** The size of each base64 image in a body, in any family's shape (URLs are fetched upstream: not counted). */
export function imageSizes(body: Body): number[] {
  const sizes: number[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isObj(v)) return;
    if (v.type === 'image' && isObj(v.source) && v.source.type === 'base64' && typeof v.source.data === 'string')
      sizes.push(decodedBytes(v.source.data));
    else if (
      v.type === 'image_url' &&
      isObj(v.image_url) &&
      typeof v.image_url.url === 'string' &&
      v.image_url.url.startsWith('data:')
    )
      sizes.push(decodedBytes(v.image_url.url));
    else if (v.type === 'input_image' && typeof v.image_url === 'string' && v.image_url.startsWith('data:'))
      sizes.push(decodedBytes(v.image_url));
    else Object.values(v).forEach(visit);
  };
  visit(body.messages);
  visit(body.input);
  return sizes;
}

const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

/** What goes over the protocol's image limits in this body, in a sentence, or undefined. */
export function imageSizeProblem(protocol: ProtocolId, body: Body): string | undefined {
  const sizes = imageSizes(body);
  const { perImage, perRequest } = IMAGE_LIMITS[protocol];
  const big = perImage ? sizes.filter((s) => s > perImage) : [];
  if (perImage && big.length) {
    const which = big.length === 1 ? 'An image is' : `${big.length} images are`;
    const limit = `Messages takes at most ${mb(perImage)} per image`;
    const sizes = big.map(mb).join(', ');
    return `${which} over ${mb(perImage)} (${sizes}): ${limit}, so the gateway will likely refuse this request.`;
  }
  const total = sizes.reduce((a, b) => a + b, 0);
  if (perRequest && total > perRequest)
    return `The images add up to ${mb(total)}: this protocol takes at most ${mb(perRequest)} of images per request.`;
  return undefined;
}

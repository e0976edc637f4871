/**
 * Vision (protocols.md §7.6, the colour variant the issue allows): a small PNG generated at run time in a
 * colour picked at random, sent base64 in the protocol's image shape; the reply must name that colour and no
 * other candidate. The random colour is the nonce: a gateway that drops the image can only guess (1 in 4).
 */
import { randomInt } from 'node:crypto';
import { PNG } from 'pngjs';
import type { ProtocolId } from '../../../shared/protocols/types';
import { capText, nonce, replyText, statusOf, userBody, type Body, type ProbeEnv, type ProbeVerdict } from './harness';

export interface ProbeColour {
  name: string;
  rgb: [number, number, number];
  /** Other words that name the same colour. */
  aliases: string[];
}

export const PROBE_COLOURS: ProbeColour[] = [
  { name: 'red', rgb: [220, 30, 30], aliases: ['crimson', 'scarlet'] },
  { name: 'green', rgb: [30, 170, 60], aliases: [] },
  { name: 'blue', rgb: [30, 70, 220], aliases: ['navy'] },
  { name: 'yellow', rgb: [245, 210, 20], aliases: [] },
];

/** A solid square of one colour: no text, so the model has to look at the pixels. */
export function colourPng(rgb: [number, number, number], size = 32): Buffer {
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

function imagePart(protocol: ProtocolId, b64: string): unknown {
  if (protocol === 'messages') return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } };
  if (protocol === 'chat') return { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } };
  return { type: 'input_image', image_url: `data:image/png;base64,${b64}`, detail: 'auto' };
}

function textPart(protocol: ProtocolId, text: string): unknown {
  return protocol === 'responses' ? { type: 'input_text', text } : { type: 'text', text };
}

export function namesOf(reply: string): string[] {
  const words = new Set(reply.toLowerCase().match(/[a-z]+/g) ?? []);
  return PROBE_COLOURS.filter((c) => words.has(c.name) || c.aliases.some((a) => words.has(a))).map((c) => c.name);
}

export async function probeVision(env: ProbeEnv): Promise<ProbeVerdict> {
  const colour = PROBE_COLOURS[randomInt(PROBE_COLOURS.length)];
  const png = colourPng(colour.rgb);
  const b64 = png.toString('base64');
  const prompt = `What is the main colour of this image? Answer with one word. (probe ${nonce()})`;
  const body: Body = userBody(env.protocol, env.model, [imagePart(env.protocol, b64), textPart(env.protocol, prompt)], 32);
  const run = await env.call(body);
  const reply = replyText(run.result.transcript);
  const named = namesOf(reply);
  const fields = { colour: colour.name, rgb: colour.rgb, pngBytes: png.length, named, inputTokens: run.result.transcript.usage.inputTotal };
  const status = statusOf(run);
  if (named.length === 1 && named[0] === colour.name) {
    return {
      outcome: 'proven',
      status,
      message: `Named the image's colour, ${colour.name}.`,
      explanation: 'The colour was picked at random for this request and exists only in the image, so the model saw the image.',
      fields,
      text: capText(reply),
    };
  }
  return {
    outcome: 'not-supported',
    status,
    message:
      named.length === 0
        ? `HTTP ${status} without naming the colour (${colour.name}): the image was dropped or not seen.`
        : `Named ${named.join(', ')} for a ${colour.name} image.`,
    explanation: 'A model that received the image names its colour; any other answer means the gateway dropped it or the model is text-only.',
    fields,
    text: capText(reply),
  };
}

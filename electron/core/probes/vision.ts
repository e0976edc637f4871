/**
 * Vision (docs/protocols.md §7.6): a PNG generated at run time showing a fresh nonce in large black text on white,
 * sent base64 in the protocol's image shape; the reply must contain that nonce. The nonce exists only in the
 * image's pixels (never in the prompt), so a gateway that drops the image, or a text-only model, can only
 * guess: one chance in 32^6 (about 10^-9) per probe.
 */
import type { ProtocolId } from '../../../shared/protocols/types';
import {
  capText,
  nonce,
  ProbeStop,
  replyText,
  statusOf,
  userBody,
  type Body,
  type ProbeEnv,
  type ProbeVerdict,
} from './harness';
import type { FinishedRun } from '../runs';
import { textPng } from './pixel-font';

export const VISION_PROMPT = 'Reply with only the text in the image.';

function imagePart(protocol: ProtocolId, b64: string): unknown {
  if (protocol === 'messages') return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } };
  if (protocol === 'chat') return { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } };
  return { type: 'input_image', image_url: `data:image/png;base64,${b64}`, detail: 'auto' };
}

function textPart(protocol: ProtocolId, text: string): unknown {
  return protocol === 'responses' ? { type: 'input_text', text } : { type: 'text', text };
}

/**
 * Case, spaces and punctuation are ignored: a model that saw the image may well answer "K7P X2M." or wrap it
 * in a sentence, and the nonce alphabet has no letters a reader could confuse (no I, O, 0 or 1).
 */
export function readsNonce(reply: string, expected: string): boolean {
  return reply
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .includes(expected.toUpperCase());
}

/**
 * What the image did to the input token count, against a text-only control call (§7.6): a gateway that
 * strips images bills the same either way, a model that received an image it cannot read bills for it.
 */
function imageTokens(
  withImage: number | undefined,
  control: number | undefined,
): { imageInputTokens?: number; note: string } {
  if (withImage === undefined || control === undefined) {
    return {
      note: 'The gateway did not report input tokens for both calls, so whether the image was billed is unknown.',
    };
  }
  const added = withImage - control;
  if (added > 0)
    return {
      imageInputTokens: added,
      note: `The image added ${added} input tokens over a text-only control call (${withImage} against ${control}).`,
    };
  return {
    imageInputTokens: added,
    note: `The image added no input tokens over a text-only control call (${withImage} against ${control}): the gateway most likely dropped it before the model.`,
  };
}

export async function probeVision(env: ProbeEnv): Promise<ProbeVerdict> {
  const secret = nonce();
  const image = textPng(secret);
  const b64 = image.png.toString('base64');
  const prompt = textPart(env.protocol, VISION_PROMPT);
  const body: Body = userBody(env.protocol, env.model, [imagePart(env.protocol, b64), prompt], 32);
  const run = await env.call(body);
  // The same request without the image: only its input tokens are read. A control that fails (a 429 on the
  // second call, say) leaves them unknown; it must not undo what the first call showed.
  let control: FinishedRun | undefined;
  try {
    control = await env.send(userBody(env.protocol, env.model, [prompt], 32));
  } catch (err) {
    if (!(err instanceof ProbeStop)) throw err;
  }
  const reply = replyText(run.result.transcript);
  const read = readsNonce(reply, secret);
  const inputTokens = run.result.transcript.usage.inputTotal;
  const controlInputTokens =
    control?.result.verdict === 'complete' ? control.result.transcript.usage.inputTotal : undefined;
  const billed = imageTokens(inputTokens, controlInputTokens);
  const fields = {
    nonce: secret,
    read,
    image: { width: image.width, height: image.height, pngBytes: image.png.length },
    inputTokens,
    controlInputTokens,
    ...(billed.imageInputTokens !== undefined ? { imageInputTokens: billed.imageInputTokens } : {}),
  };
  const status = statusOf(run);
  if (read) {
    return {
      outcome: 'proven',
      status,
      message: `Read the text in the image, ${secret}. ${billed.note}`,
      explanation:
        "The text was made up for this request and written only into the image's pixels, so the model saw the image.",
      fields,
      text: capText(reply),
    };
  }
  const reached = billed.imageInputTokens !== undefined && billed.imageInputTokens > 0;
  return {
    outcome: 'not-supported',
    status,
    message: `${
      reply.trim()
        ? `HTTP ${status} without the text in the image (${secret})`
        : `HTTP ${status} with an empty reply: the text in the image (${secret}) was not read`
    }. ${billed.note}`,
    explanation: reached
      ? 'The image reached the model (it was billed) but its text did not come back: the model does not read images.'
      : 'A model that received the image can read its text back; any other answer means the gateway dropped it or the model is text-only.',
    fields,
    text: capText(reply),
  };
}

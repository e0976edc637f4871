/**
 * Streaming (docs/protocols.md §7.4): a real event stream ending with the protocol's terminal marker, with at
 * least ten content deltas. A gateway that buffers the whole answer and flushes it at the end is caught when
 * the answer took long enough to tell (first-to-last delta under 30 % of the total time).
 */
import type { ProtocolId, RawEvent } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import { failureOf, nonce, ProbeStop, statusOf, userBody, type ProbeEnv, type ProbeVerdict } from './harness';
import { plural } from '../../../shared/plural';

const MIN_DELTAS = 10;
/** Below this total time a flush cannot be told from a fast model on loopback. */
const BUFFER_CHECK_MIN_MS = 1_000;
const MIN_SPREAD = 0.3;

const TERMINAL: Record<ProtocolId, string> = {
  messages: 'message_stop',
  chat: 'data: [DONE]',
  responses: 'response.completed',
};

function json(e: RawEvent): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(e.data);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Events that carried visible text (thinking and tool arguments are not what this prompt asks for). */
export function contentDeltas(protocol: ProtocolId, events: RawEvent[]): RawEvent[] {
  return events.filter((e) => {
    const j = json(e);
    if (!j) return false;
    if (protocol === 'messages') {
      const d = j.delta as Record<string, unknown> | undefined;
      return (
        j.type === 'content_block_delta' && d?.type === 'text_delta' && typeof d.text === 'string' && d.text !== ''
      );
    }
    if (protocol === 'chat') {
      const choices = Array.isArray(j.choices) ? j.choices : [];
      return choices.some((c) => {
        const delta = (c as { delta?: { content?: unknown } })?.delta;
        return typeof delta?.content === 'string' && delta.content !== '';
      });
    }
    return j.type === 'response.output_text.delta' && typeof j.delta === 'string' && j.delta !== '';
  });
}

function terminalEvent(protocol: ProtocolId, events: RawEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const t = events[i].type;
    if (protocol === 'messages' && t === 'message_stop') return t;
    if (protocol === 'chat' && t === '[DONE]') return t;
    if (protocol === 'responses' && (t === 'response.completed' || t === 'response.incomplete')) return t;
  }
  return undefined;
}

function isSseRun(run: FinishedRun): boolean {
  return run.response?.contentType?.toLowerCase().includes('text/event-stream') ?? false;
}

function sequenceProblem(events: RawEvent[]): string | undefined {
  let last = -1;
  for (const e of events) {
    const seq = json(e)?.sequence_number;
    if (typeof seq !== 'number') continue;
    if (seq <= last) return `sequence_number ${seq} arrived after ${last}`;
    last = seq;
  }
  return undefined;
}

export async function probeStreaming(env: ProbeEnv): Promise<ProbeVerdict> {
  const body = userBody(env.protocol, env.model, `Count from 1 to 60, one number per line. (probe ${nonce()})`, 600);
  body.stream = true;
  if (env.protocol === 'chat') body.stream_options = { include_usage: true };

  let run: FinishedRun = await env.send(body);
  // One cut-off stream may be the network; two in a row is how this gateway streams. A stream the fold calls
  // complete without the terminal event (Chat tolerates a missing [DONE]) counts as cut off too.
  const cutOff = (r: FinishedRun) =>
    r.result.verdict === 'truncated' ||
    (r.result.verdict === 'complete' && isSseRun(r) && !terminalEvent(env.protocol, r.events));
  if (cutOff(run)) run = await env.send(body);
  const r = run.result;
  const contentType = run.response?.contentType;
  const isSse = isSseRun(run);
  if (r.verdict === 'truncated') {
    return {
      outcome: 'not-supported',
      status: statusOf(run),
      message: `The stream closed before ${TERMINAL[env.protocol]} twice in a row (${plural(run.events.length, 'event')}).`,
      explanation: 'A stream is complete only when its terminal marker arrives; this gateway cuts streams off.',
      fields: { contentType, events: run.events.length, reason: r.reason },
    };
  }
  if (r.verdict !== 'complete') throw new ProbeStop(failureOf(run));
  if (!isSse) {
    return {
      outcome: 'not-supported',
      status: statusOf(run),
      message: `Asked for a stream, got one ${contentType?.split(';')[0] ?? 'untyped'} body instead of text/event-stream.`,
      explanation: 'The gateway answered stream: true with a single body, so nothing was streamed.',
      fields: { contentType },
    };
  }
  const deltas = contentDeltas(env.protocol, run.events);
  const terminal = terminalEvent(env.protocol, run.events);
  if (!terminal) {
    // The rule: streaming passes only when the protocol's terminal event actually arrived.
    const last = run.events[run.events.length - 1]?.type;
    return {
      outcome: 'not-supported',
      status: statusOf(run),
      message: `No ${TERMINAL[env.protocol]} arrived, twice in a row: ${plural(run.events.length, 'event')} with ${plural(deltas.length, 'content delta')}, the last a "${last ?? 'nothing'}" event, then the stream closed.`,
      explanation: 'A stream is complete only when its terminal event arrives; this gateway ends streams without it.',
      fields: {
        contentType,
        events: run.events.length,
        contentDeltas: deltas.length,
        terminalEvent: null,
        lastEvent: last,
        reason: r.reason,
      },
    };
  }
  const totalMs = r.metrics.totalMs;
  const spreadMs = deltas.length > 1 ? deltas[deltas.length - 1].t - deltas[0].t : 0;
  const fields: Record<string, unknown> = {
    contentType,
    events: run.events.length,
    contentDeltas: deltas.length,
    terminalEvent: terminal,
    ttftMs: r.metrics.ttftMs,
    firstToLastDeltaMs: Math.round(spreadMs),
    totalMs: Math.round(totalMs),
  };
  if (deltas.length < MIN_DELTAS) {
    return {
      outcome: 'not-supported',
      status: statusOf(run),
      message: `Only ${deltas.length} content delta${deltas.length === 1 ? '' : 's'} for a 60-line answer: the answer arrived in one piece.`,
      explanation: `A streamed answer arrives in many deltas (at least ${MIN_DELTAS} here); a few large ones mean the gateway buffered it.`,
      fields,
    };
  }
  if (totalMs >= BUFFER_CHECK_MIN_MS && spreadMs < MIN_SPREAD * totalMs) {
    return {
      outcome: 'not-supported',
      status: statusOf(run),
      message: `All ${deltas.length} deltas arrived within ${Math.round(spreadMs)} ms of a ${Math.round(totalMs)} ms answer: buffered, then flushed.`,
      explanation:
        'Deltas of a real stream are spread over the generation time; bunched at the end, the gateway held the answer back.',
      fields,
    };
  }
  if (env.protocol === 'responses') {
    const problem = sequenceProblem(run.events);
    if (problem) {
      return {
        outcome: 'not-supported',
        status: statusOf(run),
        message: `Events out of order: ${problem}.`,
        explanation:
          'Responses events carry a strictly increasing sequence_number; a step back means reordered or replayed events.',
        fields,
      };
    }
  }
  return {
    outcome: 'proven',
    status: statusOf(run),
    message: `${deltas.length} content deltas over ${Math.round(spreadMs)} ms, ending with ${terminal === '[DONE]' ? 'data: [DONE]' : terminal}.`,
    explanation:
      "The answer arrived as a text/event-stream of many deltas and ended with the protocol's terminal event.",
    fields,
  };
}

/**
 * Structured output (docs/protocols.md §7.7): the schema asked for in each protocol's own field; the whole reply
 * text must parse as JSON, validate against the schema and carry this request's nonce, three times out of
 * three. Prose around the JSON or a markdown fence means the format was ignored and the model merely followed
 * the prompt.
 */
import type { ProtocolId } from '../../../shared/protocols/types';
import {
  capText,
  nonce,
  replyText,
  schemaErrors,
  statusOf,
  userBody,
  type Body,
  type ProbeEnv,
  type ProbeVerdict,
} from './harness';

export const PROBE_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', enum: ['alpha', 'beta'] }, nonce: { type: 'string' } },
  required: ['answer', 'nonce'],
  additionalProperties: false,
} as const;

const RUNS = 3;

function structuredBody(protocol: ProtocolId, model: string, n: string): Body {
  const body = userBody(protocol, model, `Give the answer "beta" and the nonce "${n}".`, 200);
  if (protocol === 'messages') body.output_config = { format: { type: 'json_schema', schema: PROBE_SCHEMA } };
  else if (protocol === 'chat')
    body.response_format = { type: 'json_schema', json_schema: { name: 'probe', schema: PROBE_SCHEMA, strict: true } };
  else body.text = { format: { type: 'json_schema', name: 'probe', schema: PROBE_SCHEMA, strict: true } };
  return body;
}

function formatField(protocol: ProtocolId): string {
  return protocol === 'messages' ? 'output_config.format' : protocol === 'chat' ? 'response_format' : 'text.format';
}

export async function probeStructuredOutput(env: ProbeEnv): Promise<ProbeVerdict> {
  const replies: { runId: string; nonce: string; reply: string }[] = [];
  let status: number | undefined;
  for (let i = 0; i < RUNS; i++) {
    const n = nonce();
    const run = await env.call(structuredBody(env.protocol, env.model, n));
    status = statusOf(run);
    const t = run.result.transcript;
    const reply = replyText(t);
    replies.push({ runId: run.ledger.runId, nonce: n, reply: capText(reply, 300) });
    const fields = { formatField: formatField(env.protocol), schema: PROBE_SCHEMA, replies };
    const refusal = t.blocks.find((b) => b.kind === 'refusal');
    if (refusal && refusal.kind === 'refusal') {
      return {
        outcome: 'inconclusive',
        status,
        message: `The model refused: ${capText(refusal.text, 200)}`,
        explanation: 'A refusal shows neither that the format is honoured nor that it is ignored.',
        fields,
      };
    }
    const trimmed = reply.trim();
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      const fenced = trimmed.startsWith('```');
      return {
        outcome: 'not-supported',
        status,
        message: fenced
          ? 'Format ignored: the JSON came wrapped in a markdown fence (prompt-following only).'
          : 'Format ignored: the reply is not bare JSON (prose around it, or no JSON at all).',
        explanation: `With ${formatField(env.protocol)} honoured the reply text is exactly a JSON document; anything else means the gateway dropped the format.`,
        fields,
        text: capText(reply),
      };
    }
    const errors = schemaErrors(PROBE_SCHEMA, parsed);
    if (errors) {
      return {
        outcome: 'not-supported',
        status,
        message: `The JSON does not satisfy the schema: ${errors}.`,
        explanation:
          'A reply constrained by the schema always validates; this one does not, so the schema was not applied.',
        fields,
        text: capText(reply),
      };
    }
    const got = (parsed as { nonce: string }).nonce;
    if (got !== n) {
      return {
        outcome: 'not-supported',
        status,
        message: `The JSON validates but carries nonce "${capText(got, 40)}" instead of "${n}".`,
        explanation: 'The nonce was fresh for this request; a different one means a canned or cached answer.',
        fields,
        text: capText(reply),
      };
    }
  }
  return {
    outcome: 'proven',
    status,
    message: `${RUNS} of ${RUNS} replies were bare JSON that validates against the schema with the right nonce.`,
    explanation: `Each reply parsed whole, satisfied the schema sent in ${formatField(env.protocol)}, and echoed that request's fresh nonce.`,
    fields: { formatField: formatField(env.protocol), schema: PROBE_SCHEMA, replies },
  };
}

/**
 * Background tasks (docs/protocols.md §4.6, §7.3): Responses `background: true`, non-streamed. Acceptance is
 * provable (status queued / in_progress and an id); fetching the result is not, because the gateway's five
 * endpoints include no GET /v1/responses/{id}. The result says exactly that.
 */
import { nonce, statusOf, userBody, type ProbeEnv, type ProbeVerdict } from './harness';

export const RETRIEVAL_NOTE =
  "the gateway's five endpoints include no way to fetch the result (no GET /v1/responses/{id}, no cancel), so the output of a non-streamed background request cannot be retrieved";

export async function probeBackground(env: ProbeEnv): Promise<ProbeVerdict> {
  const body = userBody('responses', env.model, `Reply with the single word OK. (probe ${nonce()})`, 16);
  body.background = true;
  body.store = true;
  const run = await env.call(body, 'responses');
  const status = statusOf(run);
  let json: Record<string, unknown> | undefined;
  try {
    const v: unknown = JSON.parse(run.result.rawBody ?? '');
    if (typeof v === 'object' && v !== null) json = v as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  const state = typeof json?.status === 'string' ? json.status : undefined;
  const id = typeof json?.id === 'string' ? json.id : undefined;
  const fields: Record<string, unknown> = { status: state, id, background: json?.background };
  if ((state === 'queued' || state === 'in_progress') && id) {
    return {
      outcome: 'proven',
      status,
      message: `Accepted (status ${state}, id ${id}), but ${RETRIEVAL_NOTE}.`,
      explanation: `A background request returns at once with status ${state} and an id; that proves acceptance only — retrieval is unsupported by the declared surface.`,
      fields: { ...fields, retrieval: 'unsupported' },
    };
  }
  if (state === 'completed' || state === 'incomplete') {
    return {
      outcome: 'not-supported',
      status,
      message: `background: true was ignored: the request ran in the foreground and returned status ${state}.`,
      explanation:
        'A background request returns at once with status queued or in_progress; a finished response means the flag was dropped.',
      fields,
    };
  }
  return {
    outcome: 'not-supported',
    status,
    message: `HTTP ${status} without a queued/in_progress status and an id (status ${state ?? 'absent'}).`,
    explanation:
      'Acceptance of a background request is shown by status queued or in_progress plus an id; neither came back.',
    fields,
  };
}

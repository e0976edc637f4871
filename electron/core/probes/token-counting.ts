/**
 * Token counting (docs/protocols.md §7.9): count a payload with a ~300-token system prompt and one tool on
 * /v1/messages/count_tokens, then send the same payload to /v1/messages with max_tokens 1 and compare with
 * the billed prompt (input + cache write + cache read). Within ±10 % = proven. Gateways often answer 404/501,
 * a stub `{"input_tokens":0}`, or a local estimate that ignores system and tools (§2, §9.9).
 *
 * The count request is not a run (count_tokens has no transcript), so its exchange is recorded here as
 * evidence; the Messages comparison is an ordinary run.
 */
import { performance } from 'node:perf_hooks';
import {
  buildRequest,
  describeRequestError,
  gatewayRequest,
  safeResponseHeaders,
  urlShown,
  type GatewayResponse,
} from '../http/request';
import { readBodyText } from '../http/body';
import { RequestTimer } from '../http/timer';
import { scrub } from '../secrets';
import { gatewayErrorOf } from '../gateway-errors';
import { capText, nonce, ProbeCancelled, ProbeStop, type ProbeEnv, type ProbeVerdict } from './harness';
import { TOOL_NAME, WEATHER_SCHEMA } from './tools';

const TOLERANCE = 0.1;
/** Statuses that say "no such route or feature here" rather than "this request is wrong". */
const NO_ROUTE = new Set([404, 405, 501]);

function systemPrompt(n: string): string {
  const rules = [
    'You are the weather desk of a travel assistant.',
    'Always answer in metric units and name the city you looked up.',
    'When a user asks about weather, call the get_weather tool with the city name exactly as written.',
    'If the city is ambiguous, ask one short clarifying question before calling any tool.',
    'Never invent a forecast: report only what the tool returned, including any note it adds.',
    'Keep answers under three sentences unless the user asks for detail.',
    'If the tool fails, say so plainly and suggest trying again in a minute.',
    'Round temperatures to whole degrees and mention wind only when above 30 km/h.',
    'Use the local time of the city when describing the day.',
    'Do not give travel advice beyond the weather itself.',
  ];
  // Repeated with numbering to land near 300 tokens: enough that a count ignoring the system prompt is far off.
  const lines = [`Probe ${n}.`];
  for (let round = 1; round <= 2; round++) rules.forEach((r, i) => lines.push(`${round}.${i + 1} ${r}`));
  return lines.join('\n');
}

export async function probeTokenCounting(env: ProbeEnv): Promise<ProbeVerdict> {
  const n = nonce();
  const payload = {
    model: env.model,
    system: systemPrompt(n),
    messages: [{ role: 'user', content: `What is the weather in Paris? (probe ${n})` }],
    tools: [{ name: TOOL_NAME, description: 'Current weather for a city', input_schema: WEATHER_SCHEMA }],
  };
  const count = await countTokensRequest(env, payload);
  env.extraEvidence.countTokens = count.evidence;

  if (count.status !== undefined && (count.status === 429 || count.status === 503 || count.status === 529)) {
    throw new ProbeStop({
      outcome: 'inconclusive',
      status: count.status,
      rateLimited: true,
      retryAfterMs: count.retryAfterMs,
      message: `count_tokens was rate limited or overloaded (HTTP ${count.status}).`,
      explanation: 'The gateway refused to answer for now, which says nothing about token counting.',
    });
  }
  if (count.networkError) {
    return {
      outcome: 'error',
      message: count.networkError,
      explanation: 'The count_tokens request could not reach the gateway.',
    };
  }
  const routeMissing = count.status !== undefined && NO_ROUTE.has(count.status);
  if (count.status !== undefined && !count.ok && !routeMissing) {
    return {
      outcome: 'error',
      status: count.status,
      message: `count_tokens answered HTTP ${count.status}: ${count.errorMessage}`,
      explanation: 'The gateway rejected the count request, so counting could not be observed.',
    };
  }

  // The same payload, billed: the reference the count must match.
  const run = await env.call({ ...payload, max_tokens: 1 }, 'messages');
  const usage = run.result.transcript.usage;
  const billed = usage.inputTotal;
  const fields: Record<string, unknown> = {
    countTokens: count.evidence,
    counted: count.inputTokens,
    billedInput: billed,
    usage: run.result.transcript.rawUsage,
  };

  if (routeMissing) {
    return {
      outcome: 'not-supported',
      status: count.status,
      message: `count_tokens answered HTTP ${count.status} (${count.errorMessage}) while /v1/messages served ${env.model}.`,
      explanation: 'The same model answered on /v1/messages, so the gateway does not offer token counting for it.',
      fields,
    };
  }
  if (count.inputTokens === undefined) {
    return {
      outcome: 'not-supported',
      status: count.status,
      message: 'count_tokens answered without an integer input_tokens.',
      explanation: 'A token count is an integer input_tokens field; this answer has none.',
      fields,
      text: capText(count.bodyText ?? ''),
    };
  }
  if (count.inputTokens <= 0) {
    return {
      outcome: 'not-supported',
      status: count.status,
      message: `count_tokens answered input_tokens ${count.inputTokens}: a stub.`,
      explanation: 'A real count of a non-empty payload is above zero.',
      fields,
    };
  }
  if (billed === undefined || billed <= 0) {
    return {
      outcome: 'inconclusive',
      status: count.status,
      message: `count_tokens answered ${count.inputTokens}, but /v1/messages reported no input tokens to compare with.`,
      explanation: 'Without the billed count there is nothing to check the count against.',
      fields,
    };
  }
  const off = (count.inputTokens - billed) / billed;
  fields.offBy = Math.round(off * 1000) / 10;
  if (Math.abs(off) <= TOLERANCE) {
    return {
      outcome: 'proven',
      status: count.status,
      message: `count_tokens said ${count.inputTokens}; /v1/messages billed ${billed} (${fmtPercent(off)}).`,
      explanation:
        'The count of a payload with a system prompt and a tool is within ±10 % of what the same request was billed, so it counts the whole payload.',
      fields,
    };
  }
  return {
    outcome: 'not-supported',
    status: count.status,
    message: `count_tokens said ${count.inputTokens} but /v1/messages billed ${billed} (${fmtPercent(off)}): an estimate, not a count.`,
    explanation:
      'A count more than 10 % away from the billed prompt is a local estimate (often one that ignores the system prompt or tools).',
    fields,
  };
}

function fmtPercent(x: number): string {
  const p = Math.round(x * 1000) / 10;
  return `${p >= 0 ? '+' : ''}${p} %`;
}

interface CountExchange {
  ok: boolean;
  status?: number;
  inputTokens?: number;
  bodyText?: string;
  errorMessage?: string;
  retryAfterMs?: number;
  networkError?: string;
  evidence: Record<string, unknown>;
}

async function countTokensRequest(env: ProbeEnv, payload: Record<string, unknown>): Promise<CountExchange> {
  const { profiles, timeouts } = env.deps;
  const profile = profiles.get(env.target.profileId);
  if (!profile)
    throw new ProbeStop({
      outcome: 'error',
      message: `No profile with id ${env.target.profileId}.`,
      explanation: 'The profile was deleted during the probe.',
    });
  const key = profiles.keyFor(profile.id);
  const req = buildRequest(profile, key, 'POST', '/v1/messages/count_tokens', payload, {
    secrets: profiles.secretsFor(profile.id),
  });
  const { secrets } = req;
  const evidence: Record<string, unknown> = {
    method: 'POST',
    url: urlShown(req.url),
    headers: req.redactedHeaders,
    body: scrub(req.body ?? '', secrets),
    startedAt: new Date().toISOString(),
  };
  const timer = new RequestTimer({
    headersMs: Math.min(timeouts.headersMs, env.runTimeoutMs),
    idleMs: timeouts.idleMs,
  });
  const onAbort = () => timer.cancel();
  env.signal.addEventListener('abort', onAbort, { once: true });
  const t0 = performance.now();
  try {
    let res: GatewayResponse;
    try {
      res = await gatewayRequest(req, timer.signal);
    } catch (err) {
      if (timer.cause() === 'cancelled') throw new ProbeCancelled();
      if (timer.cause()) {
        throw new ProbeStop({
          outcome: 'inconclusive',
          message: 'count_tokens did not answer in time.',
          explanation: 'A timeout says nothing about token counting; try again.',
        });
      }
      const info = describeRequestError(err, secrets, req.proxy);
      evidence.error = info;
      return { ok: false, networkError: info.message, evidence };
    }
    timer.activity();
    const headers = safeResponseHeaders(res.headers, secrets, key);
    const body = await readBodyText(res, timer, 256 * 1024).catch((err: unknown) => {
      if (timer.cause() === 'cancelled') throw new ProbeCancelled();
      throw err;
    });
    const text = scrub(body.text, secrets);
    evidence.status = res.status;
    evidence.responseHeaders = headers;
    evidence.responseBody = capText(text, 4000);
    evidence.ms = Math.round(performance.now() - t0);
    if (!res.ok) {
      const info = gatewayErrorOf(secrets, res.status, headers, text, { requestUrl: urlShown(req.url) });
      return {
        ok: false,
        status: res.status,
        errorMessage: info.message,
        retryAfterMs: info.retryAfter !== undefined ? Math.round(info.retryAfter * 1000) : undefined,
        bodyText: text,
        evidence,
      };
    }
    let inputTokens: number | undefined;
    try {
      const json = JSON.parse(text) as { input_tokens?: unknown };
      if (typeof json?.input_tokens === 'number' && Number.isInteger(json.input_tokens))
        inputTokens = json.input_tokens;
    } catch {
      inputTokens = undefined;
    }
    return { ok: true, status: res.status, inputTokens, bodyText: text, evidence };
  } finally {
    timer.done();
    env.signal.removeEventListener('abort', onAbort);
  }
}

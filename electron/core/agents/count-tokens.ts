/**
 * Claude Code's count_tokens call (docs/agents.md): with its system blocks and tools. It is not a run (no
 * transcript), so its exchange is kept on the step, key redacted, as the token-counting probe keeps its own.
 */
import type { AgentStep, StepExchange } from '../../../shared/agents/types';
import { buildRequest, describeRequestError, gatewayRequest, safeResponseHeaders } from '../http/request';
import { readBodyText } from '../http/body';
import { RequestTimer } from '../http/timer';
import { scrub } from '../secrets';
import { gatewayErrorOf } from '../gateway-errors';
import { capText, ProbeCancelled, type ProbeEnv } from '../probes/harness';
import { agentHeaders } from './headers';

const TITLE = 'count_tokens with tools';
const CONSEQUENCE = 'Claude Code would work, but its context meter and auto-compact would run on guesses.';

export async function countTokensExchange(env: ProbeEnv, payload: Record<string, unknown>): Promise<AgentStep> {
  const { profiles, timeouts } = env.deps;
  const profile = profiles.get(env.target.profileId);
  const base = { id: 'count-tokens', title: TITLE, runIds: [] };
  if (!profile) return { ...base, outcome: 'fail', evidence: 'the profile was deleted during the check.' };
  const key = profiles.keyFor(profile.id);
  const secrets = profiles.secretsFor(profile.id);
  const clientHeaders = agentHeaders('claude-code', payload, { countTokens: true });
  const req = buildRequest(profile, key, 'POST', '/v1/messages/count_tokens', payload, { secrets, clientHeaders });
  const exchange: StepExchange = {
    method: 'POST',
    url: req.url,
    requestHeaders: req.redactedHeaders,
    requestBody: scrub(req.body ?? '', secrets),
  };
  const timer = new RequestTimer({
    headersMs: Math.min(timeouts.headersMs, env.runTimeoutMs),
    idleMs: timeouts.idleMs,
  });
  const onAbort = () => timer.cancel();
  env.signal.addEventListener('abort', onAbort, { once: true });
  const warn = (evidence: string, status?: number): AgentStep => ({
    ...base,
    outcome: 'warn',
    status,
    evidence,
    exchange,
    consequence: CONSEQUENCE,
  });
  try {
    const res = await gatewayRequest(req, timer.signal);
    timer.activity();
    const headers = safeResponseHeaders(res.headers, secrets, key);
    const text = scrub((await readBodyText(res, timer, 256 * 1024)).text, secrets);
    Object.assign(exchange, { status: res.status, responseHeaders: headers, responseBody: capText(text, 4000) });
    if (!res.ok)
      return warn(
        `answered ${gatewayErrorOf(secrets, res.status, headers, text, { requestUrl: req.url }).message}`,
        res.status,
      );
    let n: unknown;
    try {
      n = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
    } catch {
      return warn('answered with a body that is not JSON.', res.status);
    }
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
      return warn(`answered input_tokens ${String(n)}, not a count.`, res.status);
    return {
      ...base,
      outcome: 'pass',
      status: res.status,
      evidence: `counted ${n} input tokens with system and tools.`,
      exchange,
    };
  } catch (err) {
    if (timer.cause() === 'cancelled') throw new ProbeCancelled();
    const message = timer.cause() ? 'did not answer in time.' : describeRequestError(err, secrets, req.proxy).message;
    exchange.error = message;
    return warn(message);
  } finally {
    timer.done();
    env.signal.removeEventListener('abort', onAbort);
  }
}

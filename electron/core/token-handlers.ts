/**
 * `tokens:count`: the counter's source selection (token-count.ts) wired to the gateway's count_tokens and to
 * what the app knows about the model — its family from the models list, or a proven token-counting probe —
 * never a guess from its name. A newer count from the same window aborts the one still in flight.
 */
import type { ModelInfo } from '../../shared/contract';
import type { CapabilityStore } from './capability-store';
import {
  buildRequest,
  describeRequestError,
  gatewayRequest,
  safeResponseHeaders,
  secretsOfProfile,
  urlShown,
} from './http/request';
import { readBodyText } from './http/body';
import { RequestTimer } from './http/timer';
import { scrub } from './secrets';
import { bodyErrorIn, gatewayErrorOf } from './gateway-errors';
import type { CoreContext, Handlers, Receiver } from './core-context';
import { RunError } from './errors';
import { countTokens, type CountDeps } from './token-count';

export function createTokenHandlers(ctx: CoreContext, capabilities: CapabilityStore): Pick<Handlers, 'tokens:count'> {
  const inFlight = new WeakMap<Receiver, AbortController>();

  const familyOf = (profileId: string, model: string | undefined): ModelInfo['family'] => {
    if (!model) return 'unknown';
    const listed = ctx.models.familyOf(profileId, model);
    if (listed !== 'unknown') return listed;
    const proven = capabilities
      .forTarget(profileId, model, 'messages')
      .some((r) => r.capability === 'token-counting' && r.outcome === 'proven');
    return proven ? 'anthropic' : 'unknown';
  };

  return {
    'tokens:count': async (input, receiver) => {
      const profile = ctx.profiles.get(input.profileId);
      if (!profile) throw new RunError('not_found', `No profile with id ${input.profileId}.`);
      const key = ctx.profiles.keyFor(profile.id);
      const secrets = secretsOfProfile(profile, ctx.profiles.secretsFor(profile.id));
      inFlight.get(receiver)?.abort();
      const controller = new AbortController();
      inFlight.set(receiver, controller);

      const ask: CountDeps['countViaGateway'] = async (messagesBody, signal) => {
        const req = buildRequest(profile, key, 'POST', '/v1/messages/count_tokens', messagesBody, { secrets });
        const timer = new RequestTimer({ headersMs: 30_000, idleMs: 30_000 });
        const abort = () => timer.cancel();
        signal?.addEventListener('abort', abort, { once: true });
        try {
          const res = await gatewayRequest(req, timer.signal);
          timer.activity();
          const { text } = await readBodyText(res, timer);
          if (!res.ok) {
            const e = gatewayErrorOf(secrets, res.status, safeResponseHeaders(res.headers, secrets, key), text, {
              requestUrl: urlShown(req.url),
            });
            return { ok: false, status: res.status, message: `${e.type}: ${e.message}` };
          }
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            return { ok: false, status: res.status, message: 'count_tokens answered with a body that is not JSON' };
          }
          const inBody = bodyErrorIn(secrets, json);
          if (inBody) return { ok: false, status: res.status, message: inBody.message };
          const n = (json as { input_tokens?: unknown }).input_tokens;
          if (typeof n !== 'number' || !Number.isFinite(n)) {
            return { ok: false, status: res.status, message: 'count_tokens answered without an input_tokens number' };
          }
          return { ok: true, inputTokens: n };
        } catch (err) {
          if (timer.cause() === 'cancelled') throw new RunError('aborted', 'A newer count replaced this one.');
          if (timer.cause()) return { ok: false, message: 'count_tokens did not answer in time' };
          return { ok: false, message: describeRequestError(err, secrets, req.proxy).message };
        } finally {
          timer.done();
          signal?.removeEventListener('abort', abort);
        }
      };
      // Whatever the gateway (or a failed request) says reaches the renderer as the estimate's reason: a gateway
      // that echoes the key or a secret header in its 401 must not show it there.
      const deps: CountDeps = {
        async countViaGateway(messagesBody, signal) {
          try {
            const answer = await ask(messagesBody, signal);
            return answer.ok ? answer : { ...answer, message: scrub(answer.message, secrets) };
          } catch (err) {
            if (err instanceof RunError || !(err instanceof Error)) throw err;
            // eslint-disable-next-line preserve-caught-error -- the cause would carry the secret scrubbed out here
            throw new Error(scrub(err.message, secrets));
          }
        },
      };

      try {
        return await countTokens(
          {
            protocol: input.protocol,
            body: input.body,
            modelFamily: familyOf(profile.id, typeof input.body.model === 'string' ? input.body.model : undefined),
            useGateway: input.useGateway,
            breakdown: input.breakdown,
          },
          deps,
          controller.signal,
        );
      } catch (err) {
        if (controller.signal.aborted) throw new RunError('aborted', 'A newer count replaced this one.');
        throw err;
      } finally {
        if (inFlight.get(receiver) === controller) inFlight.delete(receiver);
      }
    },
  };
}

/**
 * Prompt caching (docs/protocols.md §7.2): a prefix of at least 5,000 tokens that starts with the run's nonce (so
 * no earlier request can have warmed it), sent twice a few seconds apart. Proof is the second call's
 * cache-read counter above zero. Counters that are absent mean "not reported" (not supported), zero means
 * "not this time" (caching is best effort): retry, then inconclusive — unless the write counter is reported and
 * stayed 0 as well, which means nothing was ever cached (not supported).
 */
import { countTokens } from 'gpt-tokenizer';
import type { ProtocolId, Usage } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import { nonce, statusOf, userBody, type Body, type ProbeEnv, type ProbeVerdict } from './harness';

/** Clears every published minimum (Anthropic up to 4,096; OpenAI 1,024). */
export const PREFIX_MIN_TOKENS = 5_000;
/** §7.2: the two calls go 2–10 s apart. */
export const CACHE_GAP_MS = 2_000;
/** Retries after a zero cache read before calling it inconclusive. */
const ZERO_RETRIES = 3;

const WORDS = (
  'amber basalt cedar delta ember fjord granite harbor indigo juniper kelp lagoon meadow nickel orchard ' +
  'pewter quartz river saffron tundra umber valley willow xenon yarrow zephyr anchor beacon canyon dune ' +
  'estuary falcon glacier heron island jetty kestrel lantern marble nectar obsidian prairie quill ridge ' +
  'summit timber upland vessel walnut yonder zenith'
).split(' ');

/** A deterministic-looking but nonce-seeded reference text, long enough for every cache minimum. */
export function cachePrefix(seed: string, minTokens = PREFIX_MIN_TOKENS): { text: string; tokens: number } {
  let state = [...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state;
  };
  const lines = [`${seed} — reference catalogue for the cache probe. Read it, then follow the user's instruction.`];
  // ~16 tokens per line; grow in batches and measure with a real tokenizer. Gateways and other tokenizers
  // often estimate chars/4 instead, so the text must clear the minimum by that measure too.
  let tokens = 0;
  let n = 0;
  while (tokens < minTokens || lines.join('\n').length / 4 < minTokens) {
    for (let i = 0; i < 40; i++) {
      n++;
      const words = Array.from({ length: 8 }, () => WORDS[next() % WORDS.length]);
      lines.push(`Entry ${n} (${seed}-${n}): ${words.join(' ')}.`);
    }
    tokens = countTokens(lines.join('\n'));
  }
  return { text: lines.join('\n'), tokens };
}

function cachingBody(protocol: ProtocolId, model: string, prefix: string, key: string): Body {
  const body = userBody(protocol, model, 'Reply with the single word OK.', 16);
  if (protocol === 'messages') {
    body.system = [{ type: 'text', text: prefix, cache_control: { type: 'ephemeral' } }];
  } else if (protocol === 'chat') {
    body.messages = [{ role: 'system', content: prefix }, ...(body.messages as unknown[])];
    body.prompt_cache_key = key;
  } else {
    body.instructions = prefix;
    body.prompt_cache_key = key;
  }
  return body;
}

type CallCounters = { runId: string; usage: Usage; raw: unknown };

/**
 * Every call so far reported a write counter of 0 and a read of 0: the marked prefix, far above every minimum,
 * was never cached at all. A cache that works writes a fresh prefix on the first call, so this is not the
 * best-effort miss (a write, then no read) that earns a retry. Only Messages reports writes.
 */
function wroteAndReadNothing(calls: CallCounters[]): boolean {
  return calls.length >= 2 && calls.every((x) => x.usage.inputCacheWrite === 0 && x.usage.inputCached === 0);
}

function nothingCached(
  protocol: ProtocolId,
  tokens: number,
  readField: string,
  fields: Record<string, unknown>,
  status?: number,
): ProbeVerdict {
  const mark = protocol === 'messages' ? 'cache_control' : 'prompt_cache_key';
  return {
    outcome: 'not-supported',
    status,
    message:
      `Nothing cached: a ${tokens}-token prefix sent twice with ${mark} wrote 0 and read 0 tokens ` +
      `(usage.cache_creation_input_tokens 0, ${readField} 0).`,
    explanation:
      `The prefix is far above every family's minimum cacheable length (${PREFIX_MIN_TOKENS} tokens clear them all) ` +
      'and was marked for caching on both calls; a gateway that caches writes it on the first call. Both ' +
      'counters are reported and both stayed 0, so the mark is ignored.',
    fields,
  };
}

function counters(run: FinishedRun): { usage: Usage; raw: unknown } {
  return { usage: run.result.transcript.usage, raw: run.result.transcript.rawUsage };
}

export async function probeCaching(env: ProbeEnv): Promise<ProbeVerdict> {
  const seed = nonce();
  const prefix = cachePrefix(seed);
  const body = cachingBody(env.protocol, env.model, prefix.text, seed);
  const readField =
    env.protocol === 'messages'
      ? 'usage.cache_read_input_tokens'
      : env.protocol === 'chat'
        ? 'usage.prompt_tokens_details.cached_tokens'
        : 'usage.input_tokens_details.cached_tokens';

  const first = await env.call(body);
  const calls: CallCounters[] = [{ runId: first.ledger.runId, ...counters(first) }];
  let last = first;
  for (let attempt = 0; attempt <= ZERO_RETRIES; attempt++) {
    await env.sleep(CACHE_GAP_MS);
    last = await env.call(body);
    const c = counters(last);
    calls.push({ runId: last.ledger.runId, ...c });
    const fields = {
      prefixTokens: prefix.tokens,
      readField,
      calls: calls.map((x) => ({
        runId: x.runId,
        inputTotal: x.usage.inputTotal,
        cacheRead: x.usage.inputCached,
        cacheWrite: x.usage.inputCacheWrite,
        usage: x.raw,
      })),
    };
    if (c.usage.inputCached === undefined) {
      return {
        outcome: 'not-supported',
        status: statusOf(last),
        message: `Cache counters not reported: the repeated ${prefix.tokens}-token prompt came back without ${readField}.`,
        explanation:
          'A gateway that caches reports cache-read tokens on the repeat; this one reports no cache fields at all.',
        fields,
      };
    }
    if (c.usage.inputCached > 0) {
      const write = calls.slice(0, -1).find((x) => (x.usage.inputCacheWrite ?? 0) > 0)?.usage.inputCacheWrite;
      if (env.protocol === 'messages' && write === undefined) {
        // §7.2: on Messages the pass is a write reported by an earlier call and a read on the repeat. The prefix
        // began with a fresh nonce, so a read nothing reported writing means the counters contradict themselves.
        const reported = calls[0].usage.inputCacheWrite;
        return {
          outcome: 'inconclusive',
          status: statusOf(last),
          message: `The repeat read ${c.usage.inputCached} tokens from the cache, but no earlier call reported writing them (usage.cache_creation_input_tokens ${reported === undefined ? 'absent' : reported}).`,
          explanation:
            'The prefix began with a fresh nonce, so the first call must write the cache entry a later call reads; a read with no reported write means this gateway’s cache counters cannot be taken as evidence either way.',
          fields,
        };
      }
      return {
        outcome: 'proven',
        status: statusOf(last),
        message: `The repeat read ${c.usage.inputCached} tokens from the cache${write ? ` (an earlier call wrote ${write})` : ''}.`,
        explanation: `The prefix began with a fresh nonce, so only the first call of this probe could have cached it; ${readField} > 0 on the repeat shows the cache was hit.`,
        fields,
      };
    }
    if (wroteAndReadNothing(calls)) {
      return nothingCached(env.protocol, prefix.tokens, readField, fields, statusOf(last));
    }
  }
  return {
    outcome: 'inconclusive',
    status: statusOf(last),
    message: `${readField} stayed 0 on ${ZERO_RETRIES + 1} repeats of a ${prefix.tokens}-token prompt.`,
    explanation:
      'The counters are reported but never showed a hit; caching is best effort (load balancing breaks cache affinity), so this proves neither way.',
    fields: {
      prefixTokens: prefix.tokens,
      readField,
      calls: calls.map((x) => ({
        runId: x.runId,
        inputTotal: x.usage.inputTotal,
        cacheRead: x.usage.inputCached,
        cacheWrite: x.usage.inputCacheWrite,
      })),
    },
  };
}

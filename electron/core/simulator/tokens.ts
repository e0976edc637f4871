/**
 * The simulated gateway's token accounting: one function for usage and count_tokens, so they always agree, and
 * prompt caching.
 */
import { createHash } from 'node:crypto';
import type { ProtocolId } from '../../../shared/protocols/types';
import type { SimModel } from './catalogue';
import type { Conversation, Turn } from './conversation';
import { documentTokens } from './documents';

export const textTokens = (s: string) => Math.ceil(s.length / 4);
const IMAGE_TOKENS = 85;

function turnTokens(t: Turn): number {
  const documents = (t.documents ?? []).reduce((a, d) => a + documentTokens(d), 0);
  return 3 + textTokens(t.text) + t.images.length * IMAGE_TOKENS + documents;
}

export function inputTokens(conv: Conversation): number {
  let n = textTokens(conv.system) + conv.turns.reduce((a, t) => a + turnTokens(t), 0);
  for (const tool of conv.tools) n += textTokens(JSON.stringify(tool));
  return Math.max(1, n);
}

/** The cacheable prefix: everything but the last turn. */
function prefix(conv: Conversation): { tokens: number; hash: string } {
  const head = conv.turns.slice(0, -1);
  const tokens =
    textTokens(conv.system) +
    head.reduce((a, t) => a + turnTokens(t), 0) +
    conv.tools.reduce((a, t) => a + textTokens(JSON.stringify(t)), 0);
  const hash = createHash('sha256')
    .update(JSON.stringify([conv.system, head.map((t) => t.text), conv.tools]))
    .digest('hex');
  return { tokens, hash };
}

export const CACHE_MINIMUM = 1024;

export interface CacheUse {
  read: number;
  write: number;
}

/** Anthropic caches only marked prefixes; OpenAI-style routes cache any long prefix automatically. */
export function cacheUse(protocol: ProtocolId, conv: Conversation, model: SimModel, cache: Set<string>): CacheUse {
  if (!model.caching) return { read: 0, write: 0 };
  const marked = conv.systemCacheMark || conv.autoCache || conv.turns.some((t) => t.cacheMark);
  if (protocol === 'messages' && !marked) return { read: 0, write: 0 };
  const p = prefix(conv);
  if (p.tokens < CACHE_MINIMUM) return { read: 0, write: 0 };
  const key = `${model.id}:${p.hash}`;
  if (cache.has(key)) return { read: p.tokens, write: 0 };
  cache.add(key);
  return { read: 0, write: protocol === 'messages' ? p.tokens : 0 };
}

/**
 * Each agent's own request headers, replayed on every step of its check (docs/agents.md names the sources of
 * each). Auth is not among them: the key goes only where the profile's auth scheme puts it (buildRequest).
 */
import type { AgentId } from '../../../shared/agents/types';
import { ANTHROPIC_VERSION } from '../../../shared/request-headers';
import versions from './captures/versions.json' with { type: 'json' };

/**
 * The client versions the user-agents of the side requests name (Claude Code's small model and count_tokens;
 * the turns replay the captured headers, replay.ts): the captured CLI versions; the SDKs' a recent release.
 */
export const CODEX_VERSION = versions.codex;
export const CLAUDE_CODE_VERSION = versions['claude-code'];
const ANTHROPIC_JS_VERSION = '0.60.0';
/** The openai SDK Qwen Code bundles (its captured x-stainless-package-version). */
const QWEN_OPENAI_JS_VERSION = '5.11.0';

/** The betas Claude Code asks for on /v1/messages; count_tokens adds the token-counting one. */
export const CLAUDE_CODE_BETAS = [
  'claude-code-20250219',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
];
const COUNT_TOKENS_BETA = 'token-counting-2024-11-01';

/** What the first family's and the second family's JS SDKs add to every request (Claude Code, Qwen Code). */
const stainless = (version: string): Record<string, string> => ({
  'x-stainless-lang': 'js',
  'x-stainless-package-version': version,
  'x-stainless-runtime': 'node',
  'x-stainless-retry-count': '0',
});

function codexHeaders(body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    originator: 'codex_exec',
    'user-agent': `codex_exec/${CODEX_VERSION} (Ubuntu 24.04; x86_64) unknown`,
    version: CODEX_VERSION,
  };
  // Codex's conversation id is both its prompt_cache_key and its session_id header.
  if (typeof body.prompt_cache_key === 'string') headers.session_id = body.prompt_cache_key;
  return headers;
}

function claudeCodeHeaders(countTokens: boolean): Record<string, string> {
  return {
    'anthropic-version': ANTHROPIC_VERSION,
    'anthropic-beta': [...CLAUDE_CODE_BETAS, ...(countTokens ? [COUNT_TOKENS_BETA] : [])].join(','),
    'anthropic-dangerous-direct-browser-access': 'true',
    'x-app': 'cli',
    'user-agent': `claude-cli/${CLAUDE_CODE_VERSION} (external, sdk-cli)`,
    ...stainless(ANTHROPIC_JS_VERSION),
  };
}

/** The headers `agent` sends with `body` (Claude Code's count_tokens call: `countTokens`). */
export function agentHeaders(
  agent: AgentId,
  body: Record<string, unknown>,
  opts: { countTokens?: boolean } = {},
): Record<string, string> {
  switch (agent) {
    case 'codex':
      return codexHeaders(body);
    case 'claude-code':
      return claudeCodeHeaders(opts.countTokens === true);
    case 'chat-agent':
      // Its turns replay Qwen Code's captured headers (replay.ts); the same client's, should another request need them.
      return { 'user-agent': `QwenCode/${versions['qwen-code']} (linux; x64)`, ...stainless(QWEN_OPENAI_JS_VERSION) };
  }
}

/** Which agent sent a request, from its own headers (docs/agents.md lists what each sends). */
import type { IncomingHttpHeaders } from 'node:http';
import type { AgentKind } from '../../../shared/contract';
import type { Route } from './guard';

export function agentKindOf(headers: IncomingHttpHeaders, route: Route): AgentKind {
  const ua = String(headers['user-agent'] ?? '').toLowerCase();
  if (ua.startsWith('claude-cli/') || headers['x-app'] === 'cli') return 'claude-code';
  if (headers.originator !== undefined || ua.startsWith('codex')) return 'codex';
  if (route.path === '/v1/chat/completions') return 'chat';
  return 'other';
}

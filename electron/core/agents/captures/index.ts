/**
 * What the real CLIs sent, captured by scripts/capture-agent.ts (docs/agents.md "Captures"): per agent, one
 * session for a model id the CLI knows and one for an id it does not, as the replay's source of truth.
 */
import claudeKnown from './claude-code-known-id.json' with { type: 'json' };
import claudeUnknown from './claude-code-unknown-id.json' with { type: 'json' };
import codexKnown from './codex-known-id.json' with { type: 'json' };
import codexUnknown from './codex-unknown-id.json' with { type: 'json' };
import qwenKnown from './qwen-code-known-id.json' with { type: 'json' };
import qwenUnknown from './qwen-code-unknown-id.json' with { type: 'json' };

export type CapturedAgent = 'claude-code' | 'codex' | 'qwen-code';

export interface CapturedRequest {
  method: string;
  /** Path and query as sent (`/v1/messages?beta=true`). */
  path: string;
  /** Credential values are `<redacted>`; per-session ids are placeholders (`<uuid-1>`, `<hex-1>`). */
  headers: Record<string, string>;
  body?: unknown;
  /** What the Demo gateway answered during the capture. */
  status?: number;
}

export interface Capture {
  agent: CapturedAgent;
  version: string;
  capturedAt: string;
  modelIdKnown: boolean;
  /** The id the CLI was started with; `<model>` in the requests. */
  model: string;
  prompt: string;
  exitCode: number | null;
  /** The tools the CLI executed during the capture, with the start of each result. */
  toolsRun: string[];
  requests: CapturedRequest[];
}

const CAPTURES = {
  'claude-code': { known: claudeKnown as Capture, unknown: claudeUnknown as Capture },
  codex: { known: codexKnown as Capture, unknown: codexUnknown as Capture },
  'qwen-code': { known: qwenKnown as Capture, unknown: qwenUnknown as Capture },
} as const;

export function capture(agent: CapturedAgent, modelIdKnown: boolean): Capture {
  return CAPTURES[agent][modelIdKnown ? 'known' : 'unknown'];
}

/**
 * How each agent reads an answer the Check has already judged complete: what ends it that a tolerant client
 * skips. Taken from what the real CLI did against the Demo gateway (docs/agents.md "Judging per agent"), not
 * from the protocol: a malformed stream line ends Claude Code 2.1.197 ("API Error: JSON Parse error:
 * Unexpected EOF", exit 1, no retry), and so does Qwen Code 0.24.4; Codex 0.171.0 skips the line and finishes the turn.
 */
import type { AgentId } from '../../../shared/agents/types';
import type { FinishedRun } from '../runs';

export interface AgentReading {
  /** What a malformed `data:` line does to the agent. */
  malformedLine: 'ends' | 'skips';
  /** What the agent prints when it ends on one. */
  malformedWords?: string;
}

export const AGENT_READING: Record<AgentId, AgentReading> = {
  'claude-code': { malformedLine: 'ends', malformedWords: 'API Error: JSON Parse error: Unexpected EOF' },
  codex: { malformedLine: 'skips' },
  // The chat-completions agent is Qwen Code 0.24.4: a cut line ends it ("API Error: Unexpected end of JSON
  // input", exit 1) as it ends Claude Code.
  'chat-agent': { malformedLine: 'ends', malformedWords: 'API Error: Unexpected end of JSON input' },
};

/** The fold's warning for a data line that is not JSON (shared/protocols: "Event N is not a JSON object …"). */
const MALFORMED = /is not a JSON object and was skipped/;

/** Why `agent` would stop on this otherwise complete run, in its own words; undefined when it reads on. */
export function agentStops(agent: AgentId, run: FinishedRun): string | undefined {
  const reading = AGENT_READING[agent];
  if (reading.malformedLine !== 'ends') return undefined;
  const line = run.result.warnings.find((w) => MALFORMED.test(w));
  return line ? `${reading.malformedWords ?? 'a parse error'} — the stream held a malformed line (${line})` : undefined;
}

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
  /**
   * It sends the turn again without `stream` when the malformed line came before the answer's first content
   * block was finished, and ends on one after.
   */
  unstreamedBeforeText?: boolean;
}

export const AGENT_READING: Record<AgentId, AgentReading> = {
  // Claude Code 2.1.197 ("Could not parse message into JSON") sends the turn again unstreamed when the line came
  // before a content block was finished (a relay cutting the first delta line costs it one request per turn;
  // so does the Demo relay's line inside turn 1's thinking), and ends on one after (the Demo relay's line after
  // turn 2's thinking block): scripts/real-agents-unseen.test.ts and real-agents.test.ts show both.
  'claude-code': {
    malformedLine: 'ends',
    malformedWords: 'API Error: JSON Parse error: Unexpected EOF',
    unstreamedBeforeText: true,
  },
  codex: { malformedLine: 'skips' },
  // The chat-completions agent is Qwen Code 0.24.4: a cut line ends it ("API Error: Unexpected end of JSON
  // input", exit 1) as it ends Claude Code.
  'chat-agent': { malformedLine: 'ends', malformedWords: 'API Error: Unexpected end of JSON input' },
};

/** The fold's warning for a data line that is not JSON (shared/protocols: "Event N is not a JSON object …"). */
const MALFORMED = /is not a JSON object and was skipped/;

const BLOCK_DONE = /"type"\s*:\s*"content_block_stop"/;

/**
 * Whether `agent` sends this otherwise complete run's turn again unstreamed: a malformed line before the
 * answer's first content block was finished.
 */
export function resendsUnstreamed(agent: AgentId, run: FinishedRun): boolean {
  if (!AGENT_READING[agent].unstreamedBeforeText) return false;
  // The fold names the malformed line by its 1-based place among the events.
  const n = run.result.warnings.map((w) => /Event (\d+) is not a JSON object and was skipped/.exec(w)).find(Boolean);
  if (!n) return false;
  return !run.events.slice(0, Number(n[1]) - 1).some((e) => BLOCK_DONE.test(e.data));
}

/** Why `agent` would stop on this otherwise complete run, in its own words; undefined when it reads on. */
export function agentStops(agent: AgentId, run: FinishedRun): string | undefined {
  const reading = AGENT_READING[agent];
  if (reading.malformedLine !== 'ends') return undefined;
  const line = run.result.warnings.find((w) => MALFORMED.test(w));
  return line ? `${reading.malformedWords ?? 'a parse error'} — the stream held a malformed line (${line})` : undefined;
}

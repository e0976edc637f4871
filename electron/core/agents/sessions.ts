/**
 * The hand-written parts of the checks (docs/agents.md names the sources): Claude Code's side requests
 * (count_tokens, the small fast model). Every agent's turns are replayed from captures (replay.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';

type Json = Record<string, unknown>;

// ---- Claude Code's side requests (its turns are replayed from captures, replay.ts) ----

const userId = (session: string) =>
  JSON.stringify({ device_id: randomBytes(32).toString('hex'), account_uuid: '', session_id: session });

/** count_tokens takes the context without generation controls (docs/protocols.md §2). */
export function claudeCountTokens(turn1: Json): Json {
  return {
    model: turn1.model,
    system: turn1.system,
    tools: turn1.tools,
    messages: turn1.messages,
    thinking: turn1.thinking,
  };
}

/** The side request Claude Code sends to its small fast model (topic detection), short and without tools. */
export function claudeSmallModel(model: string): Json {
  return {
    model,
    max_tokens: 512,
    system: [
      {
        type: 'text',
        text:
          'Analyze if this message indicates a new conversation topic. ' +
          'Format your response as a JSON object with fields isNewTopic and title.',
      },
    ],
    messages: [{ role: 'user', content: 'List the files in this directory.' }],
    metadata: { user_id: userId(randomUUID()) },
    stream: true,
  };
}

/**
 * A session replayed from what the real CLI sent (captures/, docs/agents.md "Captures"): the capture for a
 * model id the CLI knows or for one it does not, with the model id, fresh session ids and a working dir put in
 * and everything else kept — path and query, headers, tools, system layout, betas, cache marks. Turn two is
 * the captured one with the gateway's own answer to turn one in place of the Demo gateway's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Block, Transcript } from '../../../shared/protocols/types';
import { capture, type Capture, type CapturedAgent, type CapturedRequest } from './captures';

type Json = Record<string, unknown>;
type ToolCall = Extract<Block, { kind: 'tool_call' }>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The tool each captured prompt ("Read the file notes.txt …") leads the agent's model to call. */
const TOOL: Record<CapturedAgent, string> = { 'claude-code': 'Read', codex: 'exec_command', 'qwen-code': 'read_file' };
const NAME: Record<CapturedAgent, string> = { 'claude-code': 'Claude Code', codex: 'Codex', 'qwen-code': 'Qwen Code' };

/** Headers the replay never sends as captured: credentials (the profile's auth goes instead) and transport. */
const NOT_REPLAYED = new Set(['x-api-key', 'authorization', 'accept-encoding', 'content-type', 'content-length']);

/**
 * Whether the CLI knows the id: Claude Code knows its own family's dated and aliased ids, Codex its catalogue's
 * `gpt-5.x` / `gpt-6.x` slugs, Qwen Code its own `qwen…` ids. Any other id (a relay's rename, a Demo id) gets the
 * unknown-id shape.
 */
export function modelIdKnown(agent: CapturedAgent, model: string): boolean {
  if (model.includes('sim')) return false;
  if (agent === 'qwen-code') return /^qwen/.test(model);
  return agent === 'claude-code' ? /^claude-(opus|sonnet|haiku)-\d/.test(model) : /^gpt-(5\.\d|6)/.test(model);
}

/** Which captured release a verdict is for: "Claude Code 2.1.197 (an id it does not know)". */
export function replayedName(agent: CapturedAgent, model: string): string {
  const known = modelIdKnown(agent, model);
  return `${NAME[agent]} ${capture(agent, known).version} (${known ? 'an id it knows' : 'an id it does not know'})`;
}

export interface ReplayRequest {
  /** Path and query as the CLI sent it (`/v1/messages?beta=true`). */
  path: string;
  headers: Record<string, string>;
  body: Json;
}

export interface ReplaySession {
  capture: Capture;
  turn1: ReplayRequest;
  /** Turn two as the CLI would send it after `transcript`, the gateway's answer to turn one. */
  turn2(transcript: Transcript, call: ToolCall): ReplayRequest;
  tool: string;
  schema: object;
}

const isTurn = (r: CapturedRequest) =>
  r.method === 'POST' && isObj(r.body) && /^\/v1\/(messages|responses|chat\/completions)(\?|$)/.test(r.path);

/** Fresh ids for the placeholders, the same placeholder the same id throughout one session. */
function filler(model: string, captured: string): (text: string) => string {
  const ids = new Map<string, string>();
  const fresh = (p: string, make: () => string) => {
    if (!ids.has(p)) ids.set(p, make());
    return ids.get(p) as string;
  };
  return (text) =>
    text
      .replace(/<uuid-\d+>/g, (p) => fresh(p, randomUUID))
      .replace(/<hex-\d+>/g, (p) => fresh(p, () => randomBytes(32).toString('hex')))
      .split('<cwd>')
      .join('/home/user/project')
      .split('<home>')
      .join('/home/user')
      .split('<model>')
      .join(model)
      .split(captured)
      .join(model);
}

function request(r: CapturedRequest, fill: (t: string) => string): ReplayRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (!NOT_REPLAYED.has(k)) headers[k] = fill(v);
  return { path: r.path, headers, body: JSON.parse(fill(JSON.stringify(r.body))) as Json };
}

function toolSchema(agent: CapturedAgent, body: Json, name: string): object {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObj) : [];
  const fn = (t: Json) => (agent === 'qwen-code' && isObj(t.function) ? t.function : t);
  const tool = tools.map(fn).find((t) => t.name === name);
  const schema = agent === 'claude-code' ? tool?.input_schema : tool?.parameters;
  if (!isObj(schema)) return {};
  // The validator reads the schema's own rules; which draft it names (2020-12 for Claude Code's) changes none here.
  const { $schema: _draft, ...rules } = schema;
  return rules;
}

/** Claude Code sends the assistant turn back as received: thinking with its signature, text, the tool_use. */
function claudeAssistant(transcript: Transcript): Json[] {
  const content: Json[] = [];
  for (const b of transcript.blocks) {
    if (b.kind === 'thinking' && !b.redacted)
      content.push({ type: 'thinking', thinking: b.text, signature: b.signature ?? '' });
    else if (b.kind === 'thinking' && b.data !== undefined) content.push({ type: 'redacted_thinking', data: b.data });
    else if (b.kind === 'text' && b.text) content.push({ type: 'text', text: b.text });
    else if (b.kind === 'tool_call' && b.complete)
      content.push({ type: 'tool_use', id: b.id, name: b.name, input: b.args ?? {} });
  }
  return content;
}

function claudeTurn2(captured: Json, transcript: Transcript, call: ToolCall): Json {
  const messages = (Array.isArray(captured.messages) ? captured.messages : []).filter(isObj);
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const out = messages.map((m, i) => {
    if (i === at) return { ...m, content: claudeAssistant(transcript) };
    if (i <= at || !Array.isArray(m.content)) return m;
    const content = m.content.filter(isObj).map((b) => (b.type === 'tool_result' ? { ...b, tool_use_id: call.id } : b));
    return { ...m, content };
  });
  return { ...captured, messages: out };
}

/** Codex sends the whole input again: its reasoning items as received, the function_call and its output. */
function codexTurn2(turn1: Json, captured: Json, transcript: Transcript, call: ToolCall): Json {
  const first: unknown[] = Array.isArray(turn1.input) ? (turn1.input as unknown[]) : [];
  const added = (Array.isArray(captured.input) ? captured.input : []).slice(first.length).filter(isObj);
  const reasoning = transcript.blocks.flatMap((b) => (b.kind === 'thinking' && b.item ? [{ ...b.item }] : []));
  const text = transcript.blocks.flatMap((b) => (b.kind === 'text' && b.text ? [b.text] : [])).join('');
  const items: Json[] = [...reasoning];
  for (const item of added) {
    if (item.type === 'reasoning') continue;
    if (item.type === 'message' && item.role === 'assistant') {
      if (text) items.push({ ...item, content: [{ type: 'output_text', text }] });
    } else if (item.type === 'function_call')
      items.push({ ...item, name: call.name, arguments: call.argsText, call_id: call.id });
    else if (item.type === 'function_call_output') items.push({ ...item, call_id: call.id });
    else items.push(item);
  }
  return { ...captured, input: [...first, ...items] };
}

/** A chat-completions agent sends the assistant's tool_calls and one `tool` message per call back. */
function chatTurn2(captured: Json, transcript: Transcript, call: ToolCall): Json {
  const messages = (Array.isArray(captured.messages) ? captured.messages : []).filter(isObj);
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const text = transcript.blocks.flatMap((b) => (b.kind === 'text' && b.text ? [b.text] : [])).join('');
  const out = messages.map((m, i) => {
    if (i === at) {
      const tool_calls = [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.argsText } }];
      return { ...m, content: text || null, tool_calls };
    }
    return i > at && m.role === 'tool' ? { ...m, tool_call_id: call.id } : m;
  });
  return { ...captured, messages: out };
}

const turn2Of = (agent: CapturedAgent, turn1: Json, second: Json, transcript: Transcript, call: ToolCall): Json =>
  agent === 'claude-code'
    ? claudeTurn2(second, transcript, call)
    : agent === 'codex'
      ? codexTurn2(turn1, second, transcript, call)
      : chatTurn2(second, transcript, call);

/**
 * A session saved from "Connect an agent" (saved-replays.ts) in place of a capture: its turn that called
 * `tool` and the turn that sent the result back.
 */
export interface ReplaySource {
  capture: Capture;
  tool: string;
  turns: [number, number];
}

/**
 * One replayed session of `agent` on `model`: fresh ids, the capture for whether the CLI knows the id, or the
 * saved session `source`.
 */
export function replaySession(agent: CapturedAgent, model: string, source?: ReplaySource): ReplaySession {
  const cap = source?.capture ?? capture(agent, modelIdKnown(agent, model));
  const fill = filler(model, cap.model);
  const [t1, t2] = source ? source.turns.map((i) => cap.requests[i]) : cap.requests.filter(isTurn);
  const turn1 = request(t1, fill);
  const second = request(t2, fill);
  const tool = source?.tool ?? TOOL[agent];
  return {
    capture: cap,
    turn1,
    tool,
    schema: toolSchema(agent, turn1.body, tool),
    turn2: (transcript, call) => ({ ...second, body: turn2Of(agent, turn1.body, second.body, transcript, call) }),
  };
}

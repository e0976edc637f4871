/** Messages requests (docs/protocols.md §1.2), read into the neutral shape; messages-write.ts writes them. */
import {
  asArr,
  asObj,
  asStr,
  boolF,
  type Ctx,
  Invalid,
  type IR,
  type Json,
  notTranslatedBlock,
  numF,
  oneOf,
  type Part,
  present,
  strF,
  type Tool,
  type ToolCall,
  type Turn,
  typeOf,
  readTools,
} from './ir';
import { readMessagesReasoning } from './thinking';
import { readMessagesPart, readMessagesText, readMessagesToolResult } from './messages-content';

const MESSAGES_TOP = [
  'model',
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
  'cache_control',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
];

export function readMessages(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', MESSAGES_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  ir.maxTokens = numF(b, 'max_tokens', '');
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (present(b.top_k)) ctx.lose('top_k', `${ctx.target} has no top_k sampling.`);
  if (present(b.stop_sequences)) {
    const list = asArr(b.stop_sequences, 'stop_sequences').map((s, i) => asStr(s, `stop_sequences[${i}]`));
    ir.stop = { v: list, path: 'stop_sequences', wasString: false };
  }
  if (present(b.cache_control)) ctx.noCache('cache_control');
  if (present(b.service_tier)) {
    ctx.lose(
      'service_tier',
      `The two families' service tiers mean different things: set ${ctx.target}'s service_tier by hand if needed.`,
    );
  }
  for (const key of ['container', 'mcp_servers', 'context_management']) {
    if (present(b[key])) ctx.lose(key, `A Messages-only feature: ${ctx.target} has no ${key}.`);
  }
  if (present(b.metadata)) {
    const meta = asObj(b.metadata, 'metadata');
    ctx.keys(meta, 'metadata', ['user_id']);
    ir.user = strF(meta, 'user_id', 'metadata');
  }
  if (present(b.system)) ir.turns.push(readMessagesSystem(b.system, ctx));
  if (b.messages === undefined) throw new Invalid('messages is missing.');
  asArr(b.messages, 'messages').forEach((m, i) => readMessagesTurn(m, `messages[${i}]`, ir, ctx));
  if (present(b.tools)) ir.tools = readTools(b.tools, (o, path) => readMessagesTool(o, path, ctx));
  if (present(b.tool_choice)) readMessagesToolChoice(b.tool_choice, ir, ctx);
  readMessagesReasoning(b, ir, ctx);
  return ir;
}

function readMessagesSystem(system: unknown, ctx: Ctx): Turn {
  if (typeof system === 'string') return { role: 'system', content: system, path: 'system' };
  const parts = asArr(system, 'system').map((block, i): Part => {
    const path = `system[${i}]`;
    const o = asObj(block, path);
    if (typeOf(o, path) !== 'text')
      throw new Invalid(`${path} is a "${String(o.type)}" block: system blocks must be text.`);
    return readMessagesText(o, path, ctx);
  });
  return { role: 'system', content: parts, path: 'system' };
}

function readMessagesTurn(m: unknown, path: string, ir: IR, ctx: Ctx): void {
  const o = asObj(m, path);
  ctx.keys(o, path, ['role', 'content']);
  if (o.role !== 'user' && o.role !== 'assistant') {
    const hint = o.role === 'system' ? ' (the system prompt goes in the top-level system field)' : '';
    throw new Invalid(`${path}.role must be "user" or "assistant"${hint}.`);
  }
  const contentPath = `${path}.content`;
  if (typeof o.content === 'string') {
    ir.turns.push(
      o.role === 'user'
        ? { role: 'user', content: o.content, path }
        : { role: 'assistant', content: o.content, calls: [], path, contentPath },
    );
    return;
  }
  if (!Array.isArray(o.content)) throw new Invalid(`${contentPath} must be a string or a list of content blocks.`);
  if (o.role === 'assistant') ir.turns.push(readMessagesAssistant(o.content, path, ctx));
  else ir.turns.push(...readMessagesUser(o.content, path, ctx));
}

function readMessagesAssistant(blocks: unknown[], path: string, ctx: Ctx): Turn {
  const contentPath = `${path}.content`;
  const parts: Part[] = [];
  const calls: ToolCall[] = [];
  blocks.forEach((block, j) => {
    const bp = `${contentPath}[${j}]`;
    const bo = asObj(block, bp);
    const type = typeOf(bo, bp);
    if (type === 'text') {
      const part = readMessagesText(bo, bp, ctx);
      if (calls.length > 0)
        ctx.change(
          bp,
          `${ctx.target} puts an assistant turn's text before its tool calls: this text moves ahead of them.`,
        );
      parts.push(part);
    } else if (type === 'tool_use') {
      calls.push(readMessagesToolUse(bo, bp, ctx));
    } else if (type === 'thinking' || type === 'redacted_thinking') {
      ctx.lose(
        bp,
        `${ctx.target} has no thinking blocks and their signatures cannot be recreated, so thinking starts over ` +
          `after this turn.`,
      );
    } else if (type === 'server_tool_use' || type.endsWith('_tool_result')) {
      ctx.lose(bp, `A server-tool block (${type}): ${ctx.target} has no equivalent.`);
    } else {
      notTranslatedBlock(bp, type, ctx);
    }
  });
  return { role: 'assistant', content: parts, calls, path, contentPath };
}

function readMessagesToolUse(bo: Json, bp: string, ctx: Ctx): ToolCall {
  ctx.keys(bo, bp, ['type', 'id', 'name', 'input', 'cache_control']);
  if (present(bo.cache_control)) ctx.noCache(`${bp}.cache_control`);
  const input = bo.input === undefined ? {} : asObj(bo.input, `${bp}.input`);
  const id = asStr(bo.id, `${bp}.id`);
  return { id, name: asStr(bo.name, `${bp}.name`), input, args: JSON.stringify(input), argsPath: `${bp}.input` };
}

/**
 * A user turn: tool results become tool turns of their own (Chat tool messages / Responses outputs); the rest
 * of the turn follows them.
 */
function readMessagesUser(blocks: unknown[], path: string, ctx: Ctx): Turn[] {
  const contentPath = `${path}.content`;
  const rest: Part[] = [];
  const results: Turn[] = [];
  blocks.forEach((block, j) => {
    const bp = `${contentPath}[${j}]`;
    const bo = asObj(block, bp);
    const type = typeOf(bo, bp);
    if (type === 'tool_result') {
      if (rest.length > 0)
        ctx.change(
          bp,
          `${ctx.target} needs tool results right after the tool calls: this result moves ahead of the text before it.`,
        );
      results.push(readMessagesToolResult(bo, bp, ctx));
      return;
    }
    const part = readMessagesPart(bo, bp, type, ctx);
    if (part) rest.push(part);
  });
  return rest.length > 0 || results.length === 0 ? [...results, { role: 'user', content: rest, path }] : results;
}

function readMessagesTool(o: Json, path: string, ctx: Ctx): Tool | undefined {
  if (present(o.type) && o.type !== 'custom') {
    ctx.lose(path, `A server tool (${String(o.type)}): ${ctx.target} has no equivalent.`);
    return undefined;
  }
  ctx.keys(o, path, ['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);
  if (o.type === 'custom')
    ctx.lose(`${path}.type`, `"custom" is implied for client tools; ${ctx.target} writes function tools.`);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  return {
    name: asStr(o.name, `${path}.name`),
    description: strF(o, 'description', path)?.v,
    schema: o.input_schema,
    strict: boolF(o, 'strict', path)?.v,
    path,
  };
}

function readMessagesToolChoice(tc: unknown, ir: IR, ctx: Ctx): void {
  const o = asObj(tc, 'tool_choice');
  ctx.keys(o, 'tool_choice', ['type', 'name', 'disable_parallel_tool_use']);
  const type = oneOf(o.type, 'tool_choice.type', ['auto', 'any', 'tool', 'none'] as const);
  ir.toolChoice = {
    v: { mode: type, name: type === 'tool' ? asStr(o.name, 'tool_choice.name') : undefined },
    path: 'tool_choice',
  };
  const disable = boolF(o, 'disable_parallel_tool_use', 'tool_choice');
  if (disable) ir.parallel = { v: !disable.v, path: disable.path };
}

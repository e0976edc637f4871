/** Responses requests (docs/protocols.md §4.1), read into the neutral shape; responses-write.ts writes them. */
import {
  asArr,
  asObj,
  asStr,
  boolF,
  type Ctx,
  EFFORTS,
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
  readParts,
  readTools,
} from './ir';
import { readOpenAiCommon, readOpenAiToolChoice } from './openai';

const RESPONSES_TOP = [
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_logprobs',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'text',
  'include',
  'metadata',
  'store',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'user',
  'safety_identifier',
  'previous_response_id',
  'conversation',
  'background',
  'truncation',
  'prompt',
  'max_tool_calls',
];

/** The include entry that asks Responses for log probabilities (Chat's logprobs: true). */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

export function readResponses(b: Json, ctx: Ctx): IR {
  ctx.keys(b, '', RESPONSES_TOP);
  const ir: IR = { turns: [] };
  ir.model = strF(b, 'model', '')?.v;
  ir.maxTokens = numF(b, 'max_output_tokens', '');
  ir.temperature = numF(b, 'temperature', '');
  ir.topP = numF(b, 'top_p', '');
  ir.stream = boolF(b, 'stream', '');
  if (present(b.stream_options)) {
    const so = asObj(b.stream_options, 'stream_options');
    ctx.keys(so, 'stream_options', ['include_obfuscation']);
    ir.includeObfuscation = boolF(so, 'include_obfuscation', 'stream_options');
  }
  readOpenAiCommon(b, ir);
  loseServerSide(b, ir, ctx);
  readResponsesOutput(b, ir, ctx);
  if (present(b.instructions)) {
    ir.turns.push({
      role: 'system',
      content: asStr(b.instructions, 'instructions'),
      path: 'instructions',
      instructions: true,
    });
  }
  if (b.input === undefined) throw new Invalid('input is missing.');
  if (typeof b.input === 'string') {
    ctx.change('input', 'The text becomes the first user message; translating back gives a one-message input list.');
    ir.turns.push({ role: 'user', content: b.input, path: 'input' });
  } else {
    readResponsesItems(asArr(b.input, 'input'), ir, ctx, !present(b.instructions));
  }
  if (present(b.tools)) ir.tools = readTools(b.tools, (o, path) => readResponsesTool(o, path, ctx));
  if (present(b.tool_choice)) readOpenAiToolChoice(b.tool_choice, ir, ctx, 'responses');
  ir.parallel = boolF(b, 'parallel_tool_calls', '');
  return ir;
}

/** Server-side state and features, which no other protocol has; the include list, one entry at a time. */
function loseServerSide(b: Json, ir: IR, ctx: Ctx): void {
  const stateless = `${ctx.target} is stateless: send the whole conversation instead.`;
  if (present(b.previous_response_id)) ctx.lose('previous_response_id', `Server-side history: ${stateless}`);
  if (present(b.conversation)) ctx.lose('conversation', `A server-side conversation: ${stateless}`);
  if (present(b.background)) ctx.lose('background', `${ctx.target} has no background mode.`);
  if (present(b.truncation))
    ctx.lose('truncation', `${ctx.target} has no truncation setting (an over-long request is rejected).`);
  if (present(b.prompt)) ctx.lose('prompt', `A stored prompt template: ${ctx.target} cannot reference it.`);
  if (present(b.max_tool_calls)) ctx.lose('max_tool_calls', `${ctx.target} has no limit on built-in tool calls.`);
  if (present(b.include)) {
    asArr(b.include, 'include').forEach((entry, i) => {
      const path = `include[${i}]`;
      if (entry === LOGPROBS_INCLUDE && ctx.to === 'chat') ir.logprobs = { v: true, path };
      else if (entry === 'reasoning.encrypted_content')
        ctx.lose(path, `Encrypted reasoning only means something to Responses: ${ctx.target} cannot carry it.`);
      else ctx.lose(path, `${ctx.target} has no include list for "${String(entry)}".`);
    });
  }
}

/** Reasoning and the text output's format and verbosity. */
function readResponsesOutput(b: Json, ir: IR, ctx: Ctx): void {
  if (present(b.reasoning)) {
    const r = asObj(b.reasoning, 'reasoning');
    ctx.keys(r, 'reasoning', ['effort', 'summary']);
    if (present(r.effort)) ir.effort = { v: oneOf(r.effort, 'reasoning.effort', EFFORTS), path: 'reasoning.effort' };
    if (present(r.summary))
      ir.summary = {
        v: oneOf(r.summary, 'reasoning.summary', ['auto', 'concise', 'detailed'] as const),
        path: 'reasoning.summary',
      };
  }
  if (present(b.text)) {
    const t = asObj(b.text, 'text');
    ctx.keys(t, 'text', ['format', 'verbosity']);
    ir.verbosity = strF(t, 'verbosity', 'text');
    if (present(t.format)) {
      const fp = 'text.format';
      const f = asObj(t.format, fp);
      const kind = oneOf(f.type, `${fp}.type`, ['text', 'json_object', 'json_schema'] as const);
      if (kind === 'json_schema') {
        ctx.keys(f, fp, ['type', 'name', 'schema', 'strict', 'description']);
        ir.format = {
          kind,
          schema: f.schema ?? undefined,
          name: strF(f, 'name', fp),
          strict: boolF(f, 'strict', fp),
          description: strF(f, 'description', fp),
          path: fp,
        };
      } else {
        ctx.keys(f, fp, ['type']);
        ir.format = { kind, path: fp };
      }
    }
  }
}

const HOSTED_ITEMS = [
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'custom_tool_call',
  'custom_tool_call_output',
];

type AssistantTurn = Extract<Turn, { role: 'assistant' }>;

function readResponsesItems(items: unknown[], ir: IR, ctx: Ctx, noInstructions: boolean): void {
  // Function calls join the assistant turn they follow, as one Messages/Chat assistant turn holds them.
  let current: AssistantTurn | undefined;
  items.forEach((item, i) => {
    const path = `input[${i}]`;
    const o = asObj(item, path);
    const type = o.type ?? (o.role !== undefined ? 'message' : undefined);
    if (typeof type !== 'string') throw new Invalid(`${path} has no type.`);
    if (type !== 'reasoning' && type !== 'function_call') current = undefined;
    if (type === 'message') {
      const turn = readResponsesMessage(o, path, ctx, i === 0 && noInstructions);
      if (turn.role === 'assistant') current = turn;
      ir.turns.push(turn);
    } else if (type === 'function_call') {
      const call = readResponsesCall(o, path, ctx);
      if (current) current.calls.push(call);
      else {
        current = { role: 'assistant', content: null, calls: [call], path, contentPath: path };
        ir.turns.push(current);
      }
    } else if (type === 'function_call_output') {
      ir.turns.push(readResponsesCallOutput(o, path, ctx));
    } else loseOtherItem(path, type, ctx);
  });
}

/** A message item; `leading` when it opens the input of a request without instructions. */
function readResponsesMessage(o: Json, path: string, ctx: Ctx, leading: boolean): Turn {
  ctx.keys(o, path, ['type', 'role', 'content', 'id', 'status']);
  dropItemIds(o, path, ctx);
  const role = oneOf(o.role, `${path}.role`, ['user', 'assistant', 'system', 'developer'] as const);
  const cp = `${path}.content`;
  if (role === 'assistant') {
    return { role, content: readResponsesContent(o.content, cp, ctx, 'assistant'), calls: [], path, contentPath: cp };
  }
  if (role === 'user') return { role, content: readResponsesContent(o.content, cp, ctx, 'user'), path };
  const content = readResponsesContent(o.content, cp, ctx, 'system');
  if (leading && role === 'system' && typeof content === 'string') {
    ctx.change(
      path,
      'A leading system message means the same as instructions; translating back writes it as instructions.',
    );
  }
  return { role, content, path };
}

function readResponsesCall(o: Json, path: string, ctx: Ctx): ToolCall {
  ctx.keys(o, path, ['type', 'call_id', 'name', 'arguments', 'id', 'status']);
  dropItemIds(o, path, ctx);
  return {
    id: asStr(o.call_id, `${path}.call_id`),
    name: asStr(o.name, `${path}.name`),
    args: asStr(o.arguments ?? '', `${path}.arguments`),
    argsPath: `${path}.arguments`,
  };
}

function readResponsesCallOutput(o: Json, path: string, ctx: Ctx): Turn {
  ctx.keys(o, path, ['type', 'call_id', 'output', 'id', 'status']);
  dropItemIds(o, path, ctx);
  const output = readResponsesContent(o.output ?? '', `${path}.output`, ctx, 'user');
  return { role: 'tool', callId: asStr(o.call_id, `${path}.call_id`), output, path };
}

/** Reasoning, stored-item references, built-in tool items and unknown items: none is carried. */
function loseOtherItem(path: string, type: string, ctx: Ctx): void {
  if (type === 'reasoning') {
    ctx.lose(
      path,
      `A reasoning item only means something to Responses (its summary and encrypted content cannot be ` +
        `recreated in ${ctx.target}).`,
    );
  } else if (type === 'item_reference') {
    ctx.lose(path, `A reference to a stored item: ${ctx.target} is stateless, send the item itself.`);
  } else if (HOSTED_ITEMS.includes(type)) {
    ctx.lose(path, `A built-in tool item (${type}): ${ctx.target} has no equivalent.`);
  } else notTranslatedBlock(path, type, ctx);
}

function dropItemIds(o: Json, path: string, ctx: Ctx): void {
  if (present(o.id)) ctx.lose(`${path}.id`, `Item ids are Responses-only: ${ctx.target} has none.`);
  if (present(o.status)) ctx.lose(`${path}.status`, `Item status is Responses-only: ${ctx.target} has none.`);
}

function readResponsesContent(content: unknown, path: string, ctx: Ctx, role: ContentRole): string | Part[] {
  return readParts(content, path, (o, pp, type) => readResponsesPart(o, pp, type, ctx, role));
}

type ContentRole = 'user' | 'assistant' | 'system';

function readResponsesPart(o: Json, pp: string, type: string, ctx: Ctx, role: ContentRole): Part | undefined {
  const assistant = role === 'assistant';
  if (type === 'input_text' || (type === 'output_text' && assistant)) {
    ctx.keys(o, pp, type === 'input_text' ? ['type', 'text'] : ['type', 'text', 'annotations', 'logprobs']);
    if (type === 'input_text' && assistant) ctx.change(pp, 'Assistant text comes back as output_text.');
    if (type === 'output_text' && o.annotations !== undefined)
      ctx.lose(`${pp}.annotations`, `${ctx.target} takes no annotations (citations) in earlier turns.`);
    if (type === 'output_text' && o.logprobs !== undefined)
      ctx.lose(`${pp}.logprobs`, `${ctx.target} takes no log probabilities in earlier turns.`);
    return { type: 'text', text: asStr(o.text, `${pp}.text`), path: pp };
  }
  if (type === 'refusal' && assistant) {
    ctx.keys(o, pp, ['type', 'refusal']);
    if (ctx.to !== 'messages') return { type: 'refusal', text: asStr(o.refusal, `${pp}.refusal`), path: pp };
    ctx.lose(pp, 'Messages has no refusal in earlier turns.');
    return undefined;
  }
  if (type === 'input_image' && role === 'user') return readResponsesImage(o, pp, ctx);
  if (type === 'input_file' && role === 'user') return readResponsesFile(o, pp, ctx);
  if (type === 'input_audio') ctx.lose(pp, `${ctx.target} has no audio input.`);
  else notTranslatedBlock(pp, type, ctx);
  return undefined;
}

function readResponsesImage(o: Json, pp: string, ctx: Ctx): Part | undefined {
  ctx.keys(o, pp, ['type', 'image_url', 'file_id', 'detail']);
  if (present(o.file_id) && !present(o.image_url)) return ctx.noFileId(pp, 'the image inline');
  if (present(o.file_id))
    ctx.lose(`${pp}.file_id`, `${ctx.target} cannot read provider file ids; the image URL is used.`);
  return { type: 'image', url: asStr(o.image_url, `${pp}.image_url`), detail: strF(o, 'detail', pp), path: pp };
}

function readResponsesFile(o: Json, pp: string, ctx: Ctx): Part | undefined {
  ctx.keys(o, pp, ['type', 'file_data', 'file_id', 'file_url', 'filename']);
  if (!present(o.file_data) && !present(o.file_url)) return ctx.noFileId(pp, 'the file inline');
  if (present(o.file_id)) ctx.lose(`${pp}.file_id`, `${ctx.target} cannot read provider file ids.`);
  const part: Part = {
    type: 'file',
    data: strF(o, 'file_data', pp)?.v,
    url: present(o.file_data) ? undefined : strF(o, 'file_url', pp)?.v,
    filename: strF(o, 'filename', pp),
    path: pp,
  };
  if (present(o.file_data) && present(o.file_url))
    ctx.lose(`${pp}.file_url`, 'Both file_data and file_url were given: the inline data is used.');
  return part;
}

function readResponsesTool(o: Json, path: string, ctx: Ctx): Tool | undefined {
  if (o.type !== 'function') {
    ctx.lose(path, `A built-in "${String(o.type)}" tool: ${ctx.target} has no equivalent.`);
    return undefined;
  }
  ctx.keys(o, path, ['type', 'name', 'description', 'parameters', 'strict']);
  return {
    name: asStr(o.name, `${path}.name`),
    description: strF(o, 'description', path)?.v,
    schema: o.parameters ?? undefined,
    strict: boolF(o, 'strict', path)?.v,
    path,
  };
}

/** Responses requests written from the neutral shape (docs/protocols.md §4.1); responses.ts reads them. */
import { type Ctx, type IR, type Json, type Part, strictFor, type Tool, type Turn } from './ir';
import { carryOpenAiCommon, writeOpenAiFormat } from './openai';
import { LOGPROBS_INCLUDE } from './responses';

/** Responses rejects a smaller max_output_tokens (integer_below_min_value). */
export const RESPONSES_MIN_OUTPUT_TOKENS = 16;

type AssistantTurn = Extract<Turn, { role: 'assistant' }>;

export function writeResponses(ir: IR, ctx: Ctx): Json {
  const out: Json = {};
  if (ir.model !== undefined) out.model = ir.model;
  const first = ir.turns[0];
  let turns = ir.turns;
  if (first && first.role === 'system' && typeof first.content === 'string') {
    out.instructions = first.content;
    turns = turns.slice(1);
  }
  out.input = writeResponsesItems(turns, ctx);
  writeResponsesSampling(ir, out, ctx);
  if (ir.tools) out.tools = writeResponsesTools(ir.tools, ctx);
  if (ir.toolChoice) {
    const { mode, name } = ir.toolChoice.v;
    out.tool_choice = mode === 'tool' ? { type: 'function', name } : mode === 'any' ? 'required' : mode;
  }
  if (ir.parallel) out.parallel_tool_calls = ir.parallel.v;
  writeResponsesReasoning(ir, out, ctx);
  const text: Json = {};
  if (ir.format) text.format = writeOpenAiFormat(ir.format, ctx, 'responses');
  if (ir.verbosity) text.verbosity = ir.verbosity.v;
  if (Object.keys(text).length > 0) out.text = text;
  if (ir.logprobs) {
    if (ir.logprobs.v) out.include = [LOGPROBS_INCLUDE];
    else ctx.lose(ir.logprobs.path, 'false is the default: Responses leaves log probabilities out unless included.');
  }
  carryOpenAiCommon(ir, out);
  return out;
}

/** The output cap, sampling, stop sequences and the stream settings. */
function writeResponsesSampling(ir: IR, out: Json, ctx: Ctx): void {
  if (ir.maxTokens) {
    if (ir.maxTokens.v < RESPONSES_MIN_OUTPUT_TOKENS) {
      out.max_output_tokens = RESPONSES_MIN_OUTPUT_TOKENS;
      ctx.change(
        ir.maxTokens.path,
        `${ir.maxTokens.v} is below Responses' minimum of ${RESPONSES_MIN_OUTPUT_TOKENS}: raised to ` +
          `${RESPONSES_MIN_OUTPUT_TOKENS}.`,
        'max_output_tokens',
      );
    } else out.max_output_tokens = ir.maxTokens.v;
  }
  if (ir.temperature) out.temperature = ir.temperature.v;
  if (ir.topP) out.top_p = ir.topP.v;
  if (ir.stop) ctx.lose(ir.stop.path, 'Responses has no stop sequences.');
  if (ir.stream) out.stream = ir.stream.v;
  if (ir.includeUsage)
    ctx.lose(ir.includeUsage.path, 'Responses always reports usage (in response.completed): nothing to ask for.');
  if (ir.includeObfuscation) out.stream_options = { include_obfuscation: ir.includeObfuscation.v };
}

function writeResponsesTools(tools: Tool[], ctx: Ctx): Json[] {
  return tools.map((t, k) => {
    const tool: Json = { type: 'function', name: t.name };
    if (t.description !== undefined) tool.description = t.description;
    tool.parameters = t.schema ?? null;
    if (t.schema === undefined)
      ctx.add(
        t.path,
        'Responses requires parameters on a function tool: null (a tool that takes none) is filled in.',
        `tools[${k}].parameters`,
      );
    tool.strict = strictFor(t, ctx, `tools[${k}].strict`);
    return tool;
  });
}

function writeResponsesReasoning(ir: IR, out: Json, ctx: Ctx): void {
  const reasoning: Json = {};
  if (ir.effort) {
    if (ir.effort.v === 'max') {
      reasoning.effort = 'xhigh';
      ctx.change(ir.effort.path, 'Responses has no "max" effort: "xhigh" is used.', 'reasoning.effort');
    } else reasoning.effort = ir.effort.v;
  }
  if (ir.summary) reasoning.summary = ir.summary.v;
  if (ir.display) {
    if (ir.display.v === 'summarized') reasoning.summary = 'auto';
    else
      ctx.lose(ir.display.path, 'Responses shows no reasoning summary unless asked, which is the same as "omitted".');
  }
  if (Object.keys(reasoning).length > 0) out.reasoning = reasoning;
}

function writeResponsesItems(turns: Turn[], ctx: Ctx): Json[] {
  const items: Json[] = [];
  for (const t of turns) {
    const at = `input[${items.length}]`;
    switch (t.role) {
      case 'system':
      case 'developer':
      case 'user': {
        const content =
          typeof t.content === 'string' ? t.content : responsesParts(t.content, ctx, 'input', `${at}.content`);
        items.push({ type: 'message', role: t.role, content });
        break;
      }
      case 'assistant':
        items.push(...responsesAssistant(t, ctx, at));
        break;
      case 'tool': {
        const output = typeof t.output === 'string' ? t.output : responsesParts(t.output, ctx, 'input', `${at}.output`);
        items.push({ type: 'function_call_output', call_id: t.callId, output });
        break;
      }
    }
  }
  return items;
}

/** An assistant turn: its text as a message item, then one function_call item per call. */
function responsesAssistant(t: AssistantTurn, ctx: Ctx, at: string): Json[] {
  const items: Json[] = [];
  if (typeof t.content === 'string') items.push({ type: 'message', role: 'assistant', content: t.content });
  else if (t.content !== null && t.content.length > 0)
    items.push({
      type: 'message',
      role: 'assistant',
      content: responsesParts(t.content, ctx, 'output', `${at}.content`),
    });
  else if (t.calls.length === 0) ctx.emptyTurn(t.path);
  for (const c of t.calls) items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.args });
  return items;
}

/** Content parts, written at `at` (the list's path in the translated body, for what is added there). */
function responsesParts(parts: Part[], ctx: Ctx, side: 'input' | 'output', at: string): Json[] {
  return parts.map((p, k) => responsesPart(p, ctx, side, `${at}[${k}]`));
}

function responsesPart(p: Part, ctx: Ctx, side: 'input' | 'output', at: string): Json {
  switch (p.type) {
    case 'text':
      return side === 'output' ? { type: 'output_text', text: p.text } : { type: 'input_text', text: p.text };
    case 'refusal':
      return { type: 'refusal', refusal: p.text };
    case 'image':
      if (p.detail) return { type: 'input_image', image_url: p.url, detail: p.detail.v };
      ctx.add(
        p.path,
        ctx.from === 'messages'
          ? 'Responses requires a detail on every image and Messages has none: "auto" (the model picks the ' +
              'resolution) is filled in.'
          : `Responses requires a detail on every image: "auto", ${ctx.source}'s default, is filled in (and comes ` +
              `back as detail "auto").`,
        `${at}.detail`,
      );
      return { type: 'input_image', image_url: p.url, detail: 'auto' };
    case 'file': {
      const file: Json = { type: 'input_file' };
      if (p.data !== undefined) file.file_data = p.data;
      else file.file_url = p.url;
      if (p.filename) file.filename = p.filename.v;
      return file;
    }
  }
}

/** What Chat Completions and Responses spell alike (docs/protocols.md §3.2, §4.1), read and written once. */
import { asObj, asStr, boolF, type Ctx, type Format, type IR, type Json, numF, oneOf, present, strF } from './ir';

/** Name given to a JSON schema when the source had none: Chat and Responses require one. */
export const DEFAULT_SCHEMA_NAME = 'output';

/** Fields Chat and Responses spell the same way. */
export function readOpenAiCommon(b: Json, ir: IR): void {
  ir.user = strF(b, 'user', '');
  ir.safetyIdentifier = strF(b, 'safety_identifier', '');
  if (present(b.metadata)) ir.metadata = { v: asObj(b.metadata, 'metadata'), path: 'metadata' };
  ir.store = boolF(b, 'store', '');
  ir.promptCacheKey = strF(b, 'prompt_cache_key', '');
  ir.promptCacheRetention = strF(b, 'prompt_cache_retention', '');
  ir.serviceTier = strF(b, 'service_tier', '');
  ir.topLogprobs = numF(b, 'top_logprobs', '');
}

export function readOpenAiToolChoice(tc: unknown, ir: IR, ctx: Ctx, from: 'chat' | 'responses'): void {
  if (typeof tc === 'string') {
    const mode = oneOf(tc, 'tool_choice', ['auto', 'none', 'required'] as const);
    ir.toolChoice = { v: { mode: mode === 'required' ? 'any' : mode }, path: 'tool_choice' };
    return;
  }
  const o = asObj(tc, 'tool_choice');
  if (o.type !== 'function') {
    ctx.lose('tool_choice', `A "${String(o.type)}" tool choice: ${ctx.target} only names function tools.`);
    return;
  }
  if (from === 'chat') {
    ctx.keys(o, 'tool_choice', ['type', 'function']);
    const fn = asObj(o.function, 'tool_choice.function');
    ctx.keys(fn, 'tool_choice.function', ['name']);
    ir.toolChoice = { v: { mode: 'tool', name: asStr(fn.name, 'tool_choice.function.name') }, path: 'tool_choice' };
  } else {
    ctx.keys(o, 'tool_choice', ['type', 'name']);
    ir.toolChoice = { v: { mode: 'tool', name: asStr(o.name, 'tool_choice.name') }, path: 'tool_choice' };
  }
}

export function carryOpenAiCommon(ir: IR, out: Json): void {
  if (ir.user) out.user = ir.user.v;
  if (ir.safetyIdentifier) out.safety_identifier = ir.safetyIdentifier.v;
  if (ir.metadata) out.metadata = ir.metadata.v;
  if (ir.store) out.store = ir.store.v;
  if (ir.promptCacheKey) out.prompt_cache_key = ir.promptCacheKey.v;
  if (ir.promptCacheRetention) out.prompt_cache_retention = ir.promptCacheRetention.v;
  if (ir.serviceTier) out.service_tier = ir.serviceTier.v;
  if (ir.topLogprobs) out.top_logprobs = ir.topLogprobs.v;
}

export function writeOpenAiFormat(f: Format, ctx: Ctx, to: 'chat' | 'responses'): Json {
  if (f.kind !== 'json_schema') return { type: f.kind };
  const at = to === 'chat' ? 'response_format.json_schema' : 'text.format';
  const spec: Json = { name: schemaName(f, ctx, at) };
  if (f.schema !== undefined) spec.schema = f.schema;
  if (f.description) spec.description = f.description.v;
  if (f.strict) spec.strict = f.strict.v;
  else if (ctx.from === 'messages') {
    spec.strict = true;
    ctx.add(
      f.path,
      `Messages always holds the output to the schema; ${ctx.target} does only with strict: true, so strict: true ` +
        `is added.`,
      `${at}.strict`,
    );
  }
  return to === 'chat' ? { type: 'json_schema', json_schema: spec } : { type: 'json_schema', ...spec };
}

/** Chat and Responses require a JSON schema's name (docs/protocols.md §3.2, §4.1); Messages' format has none. */
function schemaName(f: Format, ctx: Ctx, at: string): string {
  if (f.name) return f.name.v;
  ctx.add(
    f.path,
    ctx.from === 'messages'
      ? `Messages' output format has no name, and ${ctx.target} requires one: "${DEFAULT_SCHEMA_NAME}" is filled in.`
      : `The schema has no name, and ${ctx.target} requires one: "${DEFAULT_SCHEMA_NAME}" is filled in (and comes ` +
          `back as "${DEFAULT_SCHEMA_NAME}").`,
    `${at}.name`,
  );
  return DEFAULT_SCHEMA_NAME;
}

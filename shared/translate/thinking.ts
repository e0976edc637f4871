/**
 * Thinking and reasoning effort (docs/protocols.md §8): Messages thinks on a budget or adaptively, Chat and
 * Responses take an effort level. How one becomes the other, both ways, and when Messages rules thinking out.
 */
import { asObj, type Ctx, type Effort, type F, Invalid, type IR, type Json, numF, oneOf, present } from './ir';

export const MESSAGES_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Thinking budget → effort level. The other protocols have levels, not budgets; the thresholds sit where
 * the first family's docs place "a little", "a fair amount" and "a lot" of thinking.
 */
export function effortForBudget(budgetTokens: number): 'low' | 'medium' | 'high' {
  if (budgetTokens < 4096) return 'low';
  if (budgetTokens < 16384) return 'medium';
  return 'high';
}

export function readMessagesReasoning(b: Json, ir: IR, ctx: Ctx): void {
  const effort = present(b.output_config) ? readOutputConfig(b.output_config, ir, ctx) : undefined;
  if (present(b.thinking)) readThinking(b.thinking, effort, ir, ctx);
  else if (effort) {
    // Without thinking, effort only steers how much the model writes. The other protocols' reasoning effort
    // asks for reasoning (translated back it turns thinking on), which this request does not ask for.
    ctx.lose(
      effort.path,
      `Without thinking, Messages' effort only steers how much the model writes; in ${ctx.target} reasoning effort ` +
        `asks for reasoning, which this request does not use, so it is left out.`,
    );
  }
}

/** output_config: the structured output format goes to the IR; the effort is returned, for the thinking to use. */
function readOutputConfig(config: unknown, ir: IR, ctx: Ctx): F<Effort> | undefined {
  const oc = asObj(config, 'output_config');
  ctx.keys(oc, 'output_config', ['effort', 'format']);
  const effort: F<Effort> | undefined = present(oc.effort)
    ? { v: oneOf(oc.effort, 'output_config.effort', MESSAGES_EFFORTS), path: 'output_config.effort' }
    : undefined;
  if (present(oc.format)) {
    const fp = 'output_config.format';
    const f = asObj(oc.format, fp);
    ctx.keys(f, fp, ['type', 'schema']);
    oneOf(f.type, `${fp}.type`, ['json_schema'] as const);
    ir.format = { kind: 'json_schema', schema: f.schema, path: fp };
  }
  return effort;
}

function readThinking(thinking: unknown, effort: F<Effort> | undefined, ir: IR, ctx: Ctx): void {
  const t = asObj(thinking, 'thinking');
  ctx.keys(t, 'thinking', ['type', 'budget_tokens', 'display']);
  const type = oneOf(t.type, 'thinking.type', ['enabled', 'adaptive', 'disabled'] as const);
  const effortPath = ctx.to === 'chat' ? 'reasoning_effort' : 'reasoning.effort';
  if (type === 'enabled') {
    const budget = numF(t, 'budget_tokens', 'thinking');
    if (!budget) throw new Invalid('thinking.budget_tokens is missing (thinking type "enabled" needs a budget).');
    ir.effort = budgetEffort(budget.v, effort, ctx, effortPath);
  } else if (type === 'adaptive') {
    // Adaptive thinking without an effort thinks at the first family's default depth, "high"; written back,
    // "high" becomes adaptive thinking alone, so an explicit "high" is the one form that does not return.
    ir.effort = effort ?? { v: 'high', path: 'thinking' };
    if (effort?.v === 'high') {
      ctx.change(
        effort.path,
        `"high" is adaptive thinking's default depth: ${ctx.target} gets reasoning effort "high", and ` +
          `translating back leaves output_config.effort out.`,
        effortPath,
      );
    }
  } else {
    ir.effort = { v: 'none', path: 'thinking' };
    if (effort)
      ctx.change(
        effort.path,
        `Thinking is disabled: reasoning effort "none" is sent instead of "${effort.v}".`,
        effortPath,
      );
  }
  if (present(t.display))
    ir.display = {
      v: oneOf(t.display, 'thinking.display', ['summarized', 'omitted'] as const),
      path: 'thinking.display',
    };
}

/** Budgeted thinking: an explicit effort wins; else the budget becomes a level. Either way the budget is gone. */
function budgetEffort(budget: number, effort: F<Effort> | undefined, ctx: Ctx, effortPath: string): F<Effort> {
  if (effort) {
    ctx.change(
      'thinking',
      `${ctx.target} has effort levels, not thinking budgets: the budget of ${budget} tokens is left out and ` +
        `output_config.effort "${effort.v}" is used.`,
      effortPath,
    );
    return effort;
  }
  const level = effortForBudget(budget);
  ctx.change(
    'thinking',
    `Thinking budget of ${budget} tokens becomes reasoning effort "${level}": ${ctx.target} has effort ` +
      `levels, not budgets.`,
    effortPath,
  );
  return { v: level, path: 'thinking' };
}

/**
 * What in the written request rules thinking out (docs/protocols.md §1.5): Messages rejects thinking with a forced
 * tool, a temperature other than 1, a top_p outside 0.95–1, or a tool loop whose last assistant turn does not
 * open with its signed thinking block. Empty when thinking may be on.
 */
export function thinkingConflicts(ir: IR, out: Json): string[] {
  const found: string[] = [];
  // No translated assistant turn has a thinking block (a signature cannot be recreated), and Messages demands one
  // only on the assistant turn whose tool calls the conversation is still answering: the last one.
  const lastAssistant = ir.turns.findLast((t) => t.role === 'assistant');
  if (lastAssistant && lastAssistant.role === 'assistant' && lastAssistant.calls.length > 0) {
    found.push(
      `the tool calls of ${lastAssistant.path} without the signed thinking block that led to them (continuing a ` +
        `tool loop with thinking needs that block echoed, and it cannot be recreated)`,
    );
  }
  if (ir.toolChoice && (ir.toolChoice.v.mode === 'any' || ir.toolChoice.v.mode === 'tool')) {
    const forced = ir.toolChoice.v.mode === 'tool' ? `tool "${ir.toolChoice.v.name}"` : 'tool call';
    found.push(`a forced ${forced} (${ir.toolChoice.path})`);
  }
  if (typeof out.temperature === 'number' && out.temperature !== 1)
    found.push(`temperature ${out.temperature} (only 1 is allowed with thinking)`);
  if (typeof out.top_p === 'number' && (out.top_p < 0.95 || out.top_p > 1))
    found.push(`top_p ${out.top_p} (0.95–1 is allowed with thinking)`);
  return found;
}

export function writeMessagesReasoning(ir: IR, out: Json, ctx: Ctx): void {
  const oc: Json = {};
  if (ir.effort) {
    const e = ir.effort.v;
    const conflicts = e === 'none' ? [] : thinkingConflicts(ir, out);
    if (e === 'none') out.thinking = { type: 'disabled' };
    else if (conflicts.length > 0) {
      // The settings the user wrote explicitly win over reasoning, which the request can do without.
      ctx.lose(
        ir.effort.path,
        `Messages rejects thinking together with ${conflicts.join(' and ')}: those are kept as you set them, and ` +
          `thinking (reasoning effort "${e}") is left out.`,
      );
    } else {
      out.thinking = { type: 'adaptive' };
      if (e === 'minimal') {
        oc.effort = 'low';
        ctx.change(ir.effort.path, 'Messages has no "minimal" effort: "low" is used.', 'output_config.effort');
      } else if (e !== 'high') oc.effort = e;
      // "high" is adaptive thinking's default depth: adaptive alone says it, and comes back as "high".
    }
  }
  if (ir.summary) {
    const thinking = out.thinking as Json | undefined;
    if (thinking && thinking.type === 'adaptive') {
      thinking.display = 'summarized';
      if (ir.summary.v !== 'auto')
        ctx.change(
          ir.summary.path,
          `Messages has one summary style: "${ir.summary.v}" becomes display "summarized".`,
          'thinking.display',
        );
    } else {
      ctx.lose(ir.summary.path, 'No thinking is sent to Messages, so there is nothing to summarise.');
    }
  }
  if (Object.keys(oc).length > 0) out.output_config = oc;
}

/**
 * Thinking / reasoning (docs/protocols.md §7.5). Messages: a thinking block with a signature (or a redacted
 * block) — without the signature it cannot be sent back, so it does not count. Chat: reasoning tokens > 0
 * (upstream shows no reasoning text; `reasoning_content` is a gateway extension, accepted as evidence too).
 * Responses: reasoning tokens > 0 or a reasoning output item. A 200 without any of these = parameter ignored.
 */
import type { Block } from '../../../shared/protocols/types';
import type { FinishedRun } from '../runs';
import {
  capText,
  failureOf,
  nonce,
  ProbeStop,
  replyText,
  statusOf,
  userBody,
  type Body,
  type ProbeEnv,
  type ProbeVerdict,
} from './harness';

type Thinking = Extract<Block, { kind: 'thinking' }>;

function puzzle(): string {
  return `A bat and a ball cost 1.10 in total; the bat costs 1.00 more than the ball. What does the ball cost? Answer with the number only. (probe ${nonce()})`;
}

function thinkingBody(env: ProbeEnv, legacy: boolean): Body {
  const body = userBody(env.protocol, env.model, puzzle(), env.protocol === 'messages' ? 4096 : 2048);
  if (env.protocol === 'messages') {
    if (legacy) body.thinking = { type: 'enabled', budget_tokens: 2048 };
    else {
      body.thinking = { type: 'adaptive' };
      body.output_config = { effort: 'high' };
    }
  } else if (env.protocol === 'chat') {
    body.reasoning_effort = 'high';
  } else {
    body.reasoning = { effort: 'high', summary: 'auto' };
  }
  return body;
}

/** Older models answer the adaptive form with a 400 naming it: fall back to the budgeted form (§7.5). */
function rejectsAdaptive(run: FinishedRun): boolean {
  const e = run.result.error;
  return (
    run.result.verdict === 'http-error' &&
    run.response?.status === 400 &&
    /adaptive|thinking|effort|output_config/i.test(e?.message ?? '')
  );
}

export async function probeThinking(env: ProbeEnv): Promise<ProbeVerdict> {
  let run: FinishedRun;
  let form =
    env.protocol === 'messages'
      ? 'thinking adaptive + effort high'
      : env.protocol === 'chat'
        ? 'reasoning_effort high'
        : 'reasoning effort high';
  if (env.protocol === 'messages') {
    const first = await env.send(thinkingBody(env, false));
    if (rejectsAdaptive(first)) {
      form = 'thinking enabled, budget 2048';
      run = await env.call(thinkingBody(env, true));
    } else {
      if (first.result.verdict !== 'complete') throw new ProbeStop(failureOf(first));
      run = first;
    }
  } else {
    run = await env.call(thinkingBody(env, false));
  }
  const t = run.result.transcript;
  const status = statusOf(run);
  const thinking = t.blocks.filter((b): b is Thinking => b.kind === 'thinking');
  const reasoningTokens = t.usage.reasoning;
  const fields: Record<string, unknown> = {
    requested: form,
    thinkingBlocks: thinking.length,
    signed: thinking.filter((b) => !!b.signature || b.redacted).length,
    reasoningTokens,
    usage: t.rawUsage,
  };
  const text = capText(replyText(t));

  if (env.protocol === 'messages') {
    const signed = thinking.find((b) => (b.signature && b.signature !== '') || b.redacted);
    if (signed) {
      return {
        outcome: 'proven',
        status,
        message: signed.redacted
          ? 'A redacted_thinking block came back.'
          : `A thinking block with a signature came back (${signed.text.length} chars of thinking).`,
        explanation:
          'Only a model that actually thought returns a signed thinking block; a gateway that dropped the parameter returns text only.',
        fields,
      };
    }
    if (thinking.length > 0) {
      return {
        outcome: 'not-supported',
        status,
        message: 'Thinking blocks came back without a signature, so they cannot be sent back on the next turn.',
        explanation:
          'The API requires thinking blocks to be echoed with their signature; unsigned ones break multi-turn use.',
        fields,
        text,
      };
    }
    return {
      outcome: 'not-supported',
      status,
      message: `HTTP ${status} with no thinking block: the thinking parameter was ignored.`,
      explanation: 'Thinking was requested, yet the reply holds only text.',
      fields,
      text,
    };
  }

  const reasoningItems = thinking.length;
  if ((reasoningTokens ?? 0) > 0 || reasoningItems > 0) {
    const parts: string[] = [];
    if ((reasoningTokens ?? 0) > 0) parts.push(`${reasoningTokens} reasoning tokens`);
    if (reasoningItems > 0)
      parts.push(
        env.protocol === 'responses' ? 'a reasoning output item' : 'visible reasoning_content (gateway extension)',
      );
    return {
      outcome: 'proven',
      status,
      message: `Reported ${parts.join(' and ')}.`,
      explanation:
        env.protocol === 'chat'
          ? 'usage.completion_tokens_details.reasoning_tokens above zero shows the model reasoned before answering.'
          : 'Reasoning tokens above zero or a reasoning item in the output show the model reasoned before answering.',
      fields,
    };
  }
  return {
    outcome: 'not-supported',
    status,
    message:
      reasoningTokens === undefined
        ? `HTTP ${status} with no reasoning tokens reported and no reasoning output: the parameter was ignored.`
        : `HTTP ${status} with 0 reasoning tokens and no reasoning output: the parameter was ignored.`,
    explanation: 'Reasoning was requested, yet nothing in the usage or output shows any.',
    fields,
    text,
  };
}

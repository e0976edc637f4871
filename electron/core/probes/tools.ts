/**
 * Tool calls and the tool-result round trip (docs/protocols.md §7.1). Proof is structural: a tool call to the
 * offered tool whose arguments parse and satisfy the schema. A 200 with text, even text that describes the
 * call or contains JSON, means the gateway flattened or dropped the tools. Stop reasons are never the
 * criterion (a forced tool choice ends with `stop` on Chat).
 */
import type { Block, ProtocolId } from '../../../shared/protocols/types';
import { appendAssistantTurn, appendToolResults } from '../../../shared/protocols';
import type { FinishedRun } from '../runs';
import {
  capText,
  nonce,
  replyText,
  schemaErrors,
  statusOf,
  userBody,
  type Body,
  type ProbeEnv,
  type ProbeVerdict,
} from './harness';

export const TOOL_NAME = 'get_weather';
export const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;
/** What the arguments are judged against: the offered schema, plus "city is a non-empty string" (§7.1). */
const WEATHER_CHECK = {
  ...WEATHER_SCHEMA,
  properties: { city: { type: 'string', minLength: 1 } },
};

type ToolCall = Extract<Block, { kind: 'tool_call' }>;

/** The same tool in each protocol's shape, with the choice that forces a call. */
export function toolsBody(protocol: ProtocolId, model: string, prompt: string, maxTokens = 256): Body {
  const body = userBody(protocol, model, prompt, maxTokens);
  const description = 'Current weather for a city';
  if (protocol === 'messages') {
    body.tools = [{ name: TOOL_NAME, description, input_schema: WEATHER_SCHEMA }];
    body.tool_choice = { type: 'any' };
  } else if (protocol === 'chat') {
    body.tools = [{ type: 'function', function: { name: TOOL_NAME, description, parameters: WEATHER_SCHEMA } }];
    body.tool_choice = 'required';
  } else {
    body.tools = [{ type: 'function', name: TOOL_NAME, description, parameters: WEATHER_SCHEMA, strict: true }];
    body.tool_choice = 'required';
  }
  return body;
}

type ToolJudgement =
  { ok: true; call: ToolCall; fields: Record<string, unknown> } | { ok: false; verdict: ProbeVerdict };

/** Reads the first reply of a tools request: the evidence for "tools", and the first half of the round trip. */
export function judgeToolCall(run: FinishedRun): ToolJudgement {
  const t = run.result.transcript;
  const status = statusOf(run);
  const calls = t.blocks.filter((b): b is ToolCall => b.kind === 'tool_call');
  const text = replyText(t);
  const base = { runId: run.ledger.runId, stopReason: t.stopReason };
  if (calls.length === 0) {
    const describes = text.includes(TOOL_NAME) || /[{[]/.test(text);
    return {
      ok: false,
      verdict: {
        outcome: 'not-supported',
        status,
        message: describes
          ? `HTTP ${status} with text that describes the call instead of a tool call: tools flattened to text.`
          : `HTTP ${status} with a plain text reply and no tool call: the tools were ignored.`,
        explanation: `The request offered ${TOOL_NAME} and required a call, but the reply holds no tool call structure, only text.`,
        text: capText(text),
        fields: { ...base, toolCalls: 0, stopReason: t.stopReason },
      },
    };
  }
  const call = calls.find((c) => c.name === TOOL_NAME);
  if (!call) {
    return {
      ok: false,
      verdict: {
        outcome: 'not-supported',
        status,
        message: `Called ${calls.map((c) => c.name || '(no name)').join(', ')} instead of the offered ${TOOL_NAME}.`,
        explanation:
          'A tool call arrived, but not to the only tool offered, so the tool definition did not reach the model intact.',
        fields: { ...base, toolCalls: calls.map((c) => ({ name: c.name, arguments: c.argsText })) },
      },
    };
  }
  const callFields = { id: call.id, name: call.name, arguments: call.argsText };
  if (!call.complete || call.argsError !== undefined) {
    return {
      ok: false,
      verdict: {
        outcome: 'not-supported',
        status,
        message: `The ${TOOL_NAME} call's arguments do not parse as JSON${call.argsError ? ` (${call.argsError})` : ''}.`,
        explanation: 'A tool call whose arguments are not valid JSON cannot be executed.',
        fields: { ...base, toolCall: callFields },
      },
    };
  }
  const errors = schemaErrors(WEATHER_CHECK, call.args);
  if (errors) {
    return {
      ok: false,
      verdict: {
        outcome: 'not-supported',
        status,
        message: `The ${TOOL_NAME} arguments do not satisfy its schema: ${errors}.`,
        explanation:
          'The arguments parse but do not match the offered input schema, so the schema did not reach the model.',
        fields: { ...base, toolCall: callFields },
      },
    };
  }
  return { ok: true, call, fields: { ...base, toolCall: { ...callFields, args: call.args } } };
}

export async function probeTools(env: ProbeEnv): Promise<ProbeVerdict> {
  const run = await env.call(toolsBody(env.protocol, env.model, `Call ${TOOL_NAME} for Paris. (probe ${nonce()})`));
  const judged = judgeToolCall(run);
  if (!judged.ok) return judged.verdict;
  return {
    outcome: 'proven',
    status: statusOf(run),
    message: `Called ${TOOL_NAME}(${judged.call.argsText.trim() || '{}'}), valid against the schema.`,
    explanation: `The reply holds a ${callShape(env.protocol)} to the offered tool with arguments that parse and satisfy its schema; a gateway that dropped tools could not produce it.`,
    fields: judged.fields,
  };
}

/**
 * Sends the tool result back in the protocol's shape with a nonce the conversation has never seen; only a
 * model that received the result can repeat it.
 */
export async function probeToolRoundtrip(env: ProbeEnv): Promise<ProbeVerdict> {
  const first = toolsBody(
    env.protocol,
    env.model,
    `Call ${TOOL_NAME} for Paris, then tell me exactly what it returned. (probe ${nonce()})`,
  );
  const run1 = await env.call(first);
  const judged = judgeToolCall(run1);
  if (!judged.ok) {
    return {
      ...judged.verdict,
      message: `No usable tool call to answer: ${judged.verdict.message}`,
      explanation: 'The round trip needs a tool call first; the first reply did not contain a valid one.',
    };
  }
  const secret = nonce();
  const output = `18°C, nonce ${secret}`;
  const { tool_choice: _forced, ...rest } = first;
  // The second turn must be free to answer in text: a still-forced tool choice would demand another call.
  let second = appendAssistantTurn(env.protocol, rest, run1.result.transcript);
  second = appendToolResults(env.protocol, second, [{ id: judged.call.id, name: judged.call.name, output }]);
  const run2 = await env.call(second);
  const reply = replyText(run2.result.transcript);
  const fields = {
    toolCall: judged.fields.toolCall,
    toolResult: output,
    resultShape: resultShape(env.protocol),
    replyRunId: run2.ledger.runId,
  };
  if (reply.toUpperCase().includes(secret)) {
    return {
      outcome: 'proven',
      status: statusOf(run2),
      message: `The reply after the tool result repeats its nonce ${secret}.`,
      explanation: `The nonce existed only in the ${resultShape(env.protocol)} sent back, so the model must have received the result.`,
      fields,
      text: capText(reply),
    };
  }
  // env.call only returns complete runs: the gateway took the tool result with a 200 and a normal turn, so only
  // the model's use of it is unproven (docs/protocols.md §7.1). A rejected result never gets here.
  const calledAgain = run2.result.transcript.blocks.some((b) => b.kind === 'tool_call');
  return {
    outcome: 'inconclusive',
    status: statusOf(run2),
    message:
      `HTTP ${statusOf(run2)}: the gateway accepted the tool result, but ` +
      (calledAgain
        ? 'the model called the tool again instead of using it.'
        : `the reply does not repeat its nonce ${secret}.`),
    explanation:
      `The ${resultShape(env.protocol)} was accepted and answered with a normal turn, so the gateway did not ` +
      'refuse it; without the nonce in the reply nothing shows the model read it. Neither proven nor disproven.',
    fields,
    text: capText(reply),
  };
}

function callShape(protocol: ProtocolId): string {
  return protocol === 'messages'
    ? 'tool_use block'
    : protocol === 'chat'
      ? 'message.tool_calls entry'
      : 'function_call item';
}

function resultShape(protocol: ProtocolId): string {
  return protocol === 'messages'
    ? 'tool_result block'
    : protocol === 'chat'
      ? 'role "tool" message'
      : 'function_call_output item';
}

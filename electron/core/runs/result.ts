/** A run's result from how it ended: its metrics, and the request id an error in a 200 does not name. */
import type { RunMetrics, RunResult } from '../../../shared/contract';
import { requestIdOf } from '../../../shared/errors';
import type { Ending, RunContext } from './types';

export function buildResult(ctx: RunContext, ending: Ending, totalMs: number): RunResult {
  const { response, ttftMs } = ctx.state;
  const { transcript, error } = ending;
  const metrics: RunMetrics = {
    status: response?.status,
    ttfbMs: response?.ttfbMs,
    ttftMs,
    totalMs,
    events: ctx.log.length,
    bytes: ctx.state.bytes,
    usage: transcript.usage,
  };
  const rate = outputRate(ending, totalMs, ttftMs, response?.ttfbMs);
  if (rate !== undefined) metrics.outputTokensPerSec = rate;
  // An error that arrived in a 200 (an error event mid-stream, an error body) names no request id itself:
  // the response headers do, and it is what a support ticket asks for.
  const requestId = error && error.requestId === undefined && response ? requestIdOf(response.headers) : undefined;
  return {
    verdict: ending.verdict,
    reason: ending.reason,
    error: requestId === undefined || !error ? error : { ...error, requestId },
    metrics,
    transcript,
    warnings: ctx.warnings,
    response,
    rawBody: ending.rawBody,
    endedAt: new Date().toISOString(),
  };
}

/**
 * Output tokens per second. From the first token when a stream showed one; else (one JSON body) from the
 * request: the time to read a finished body after its headers says nothing about generation speed. Reasoning
 * the usage counts but the stream never showed was generated before the first visible token: then from the
 * response headers, so its time is counted along with its tokens.
 */
function outputRate(
  ending: Ending,
  totalMs: number,
  ttftMs: number | undefined,
  ttfbMs: number | undefined,
): number | undefined {
  const { usage, blocks } = ending.transcript;
  const hiddenReasoning = (usage.reasoning ?? 0) > 0 && !blocks.some((b) => b.kind === 'thinking' && b.text !== '');
  const genMs = totalMs - (ttftMs === undefined ? 0 : hiddenReasoning ? (ttfbMs ?? 0) : ttftMs);
  if (usage.output === undefined || genMs <= 0) return undefined;
  return Math.round((usage.output / genMs) * 1000 * 10) / 10;
}

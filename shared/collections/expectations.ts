/**
 * What a request in a collection expects (docs/collections.md): checked against the run's own evidence, so a
 * collection run is a regression check a person can trust after their gateway changes.
 */
import { z } from 'zod';
import type { Verdict } from '../protocols/types';

export const ExpectationSchema = z
  .object({
    /** The run must end with this verdict (usually "complete"). */
    verdict: z.enum(['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout']).optional(),
    /** The reply must call this tool (by name). */
    toolCall: z.string().trim().min(1).max(200).optional(),
    /** This text must appear in the reply (case-sensitive, as typed). */
    textIncludes: z.string().min(1).max(2000).optional(),
    /** The gateway must report usage (input and output tokens). */
    usageReported: z.boolean().optional(),
  })
  .strict();
export type Expectation = z.infer<typeof ExpectationSchema>;

/** What a finished run showed, as much as an expectation needs. */
export interface RunEvidence {
  verdict: Verdict;
  text: string;
  toolCalls: readonly string[];
  inputTokens?: number;
  outputTokens?: number;
}

export interface ExpectationCheck {
  /** What was expected, in words: "verdict complete", "calls get_weather". */
  expected: string;
  pass: boolean;
  /** What happened instead, when it failed. */
  actual?: string;
}

function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One line per expectation set; an empty list when the request expects nothing. */
export function checkExpectation(exp: Expectation | undefined, run: RunEvidence): ExpectationCheck[] {
  if (!exp) return [];
  const checks: ExpectationCheck[] = [];
  if (exp.verdict) {
    const pass = run.verdict === exp.verdict;
    checks.push({ expected: `verdict ${exp.verdict}`, pass, ...(pass ? {} : { actual: `verdict ${run.verdict}` }) });
  }
  if (exp.toolCall) {
    const pass = run.toolCalls.includes(exp.toolCall);
    const actual = run.toolCalls.length ? `called ${run.toolCalls.join(', ')}` : 'no tool call';
    checks.push({ expected: `calls ${exp.toolCall}`, pass, ...(pass ? {} : { actual }) });
  }
  if (exp.textIncludes !== undefined) {
    const pass = run.text.includes(exp.textIncludes);
    const actual = run.text ? `the reply was "${clip(run.text)}"` : 'no text in the reply';
    checks.push({ expected: `text contains "${clip(exp.textIncludes)}"`, pass, ...(pass ? {} : { actual }) });
  }
  if (exp.usageReported) {
    const pass = run.inputTokens !== undefined && run.outputTokens !== undefined;
    checks.push({ expected: 'usage reported', pass, ...(pass ? {} : { actual: 'no usage in the response' }) });
  }
  return checks;
}

/** A request passes when every expectation holds; without expectations, when its run completed. */
export function requestPassed(checks: readonly ExpectationCheck[], verdict: Verdict): boolean {
  return checks.length ? checks.every((c) => c.pass) : verdict === 'complete';
}

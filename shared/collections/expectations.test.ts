import { describe, expect, it } from 'vitest';
import { checkExpectation, requestPassed, type RunEvidence } from './expectations';

const run: RunEvidence = {
  verdict: 'complete',
  text: 'The weather in Paris is mild.',
  toolCalls: ['get_weather'],
  inputTokens: 10,
  outputTokens: 7,
};

describe('collection expectations', () => {
  it('passes when every expectation holds', () => {
    const checks = checkExpectation(
      { verdict: 'complete', toolCall: 'get_weather', textIncludes: 'Paris', usageReported: true },
      run,
    );
    expect(checks).toHaveLength(4);
    expect(requestPassed(checks, run.verdict)).toBe(true);
  });

  it('says what happened instead when one fails', () => {
    const checks = checkExpectation({ toolCall: 'get_time', textIncludes: 'London' }, { ...run, toolCalls: [] });
    expect(checks.map((c) => [c.pass, c.actual])).toEqual([
      [false, 'no tool call'],
      [false, 'the reply was "The weather in Paris is mild."'],
    ]);
    expect(requestPassed(checks, 'complete')).toBe(false);
  });

  it('fails usage when the gateway reported none', () => {
    const checks = checkExpectation({ usageReported: true }, { ...run, outputTokens: undefined });
    expect(checks[0]).toEqual({ expected: 'usage reported', pass: false, actual: 'no usage in the response' });
  });

  it('without expectations a request passes only when its run completed', () => {
    expect(checkExpectation(undefined, run)).toEqual([]);
    expect(requestPassed([], 'complete')).toBe(true);
    expect(requestPassed([], 'http-error')).toBe(false);
  });
});

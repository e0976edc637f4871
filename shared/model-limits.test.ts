/** A gateway's own model limits, their short form, and the warning before a request that cannot fit. */
import { describe, expect, it } from 'vitest';
import { entryLimits, fitWarning, tokensShort } from './model-limits';

describe('entryLimits', () => {
  it('reads the fields relays use, OpenRouter’s top_provider included', () => {
    expect(entryLimits({ context_length: 131_072, max_completion_tokens: 8_192 })).toEqual({
      contextWindow: 131_072,
      maxOutput: 8_192,
    });
    expect(entryLimits({ max_input_tokens: 200_000, max_tokens: 64_000 })).toEqual({
      contextWindow: 200_000,
      maxOutput: 64_000,
    });
    expect(entryLimits({ top_provider: { context_length: 1_000_000, max_completion_tokens: 32_000 } })).toEqual({
      contextWindow: 1_000_000,
      maxOutput: 32_000,
    });
  });

  it('ignores what is not a positive whole number', () => {
    expect(entryLimits({ context_length: '200k', max_tokens: -1 })).toEqual({});
    expect(entryLimits(undefined)).toEqual({});
  });
});

describe('tokensShort', () => {
  it('states windows as model pages do', () => {
    expect(tokensShort(200_000)).toBe('200K');
    expect(tokensShort(64_000)).toBe('64K');
    expect(tokensShort(1_048_576)).toBe('1.05M');
    expect(tokensShort(1_000_000)).toBe('1M');
    expect(tokensShort(512)).toBe('512');
  });
});

describe('fitWarning', () => {
  it('says nothing while the request fits, or while a figure is unknown', () => {
    expect(fitWarning(100_000, 64_000, 200_000)).toBeUndefined();
    expect(fitWarning(150_000, 50_000, 200_000)).toBeUndefined();
    expect(fitWarning(150_000, 64_000, undefined)).toBeUndefined();
    expect(fitWarning(undefined, 64_000, 200_000)).toBeUndefined();
  });

  it('warns when input plus max tokens exceeds the window, saying how far to lower max tokens', () => {
    const w = fitWarning(150_000, 64_000, 200_000);
    expect(w).toContain('150,000 input tokens plus 64,000 reserved');
    expect(w).toContain('Lower max tokens to 50,000');
  });

  it('warns when the input alone is too long', () => {
    expect(fitWarning(250_000, 1_000, 200_000)).toContain('the input alone is 250,000 tokens');
  });
});

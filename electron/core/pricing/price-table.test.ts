/**
 * The cost of a run from reported usage. Expected figures are worked by hand from the list prices the library
 * publishes for claude-sonnet-4-5 (USD per million: input 3, cache write 3.75, cache read 0.30, output 15; over
 * 200K prompt tokens input 6, cache write 7.50, cache read 0.60, output 22.50) and from the override's rates.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_SETTINGS, type CostQuote } from '../../../shared/contract';
import { quoteCost } from './price-table';

const usd = (q: CostQuote) => (q.kind === 'priced' ? q.usd : NaN);

// 10,000 prompt tokens of which 2,000 read from cache and 1,000 written to it; 1,000 out, 400 of them reasoning.
const usage = { inputTotal: 10_000, inputCached: 2_000, inputCacheWrite: 1_000, output: 1_000, reasoning: 400 };
const byHand = (7_000 * 3 + 2_000 * 0.3 + 1_000 * 3.75 + 1_000 * 15) / 1e6;

describe('quoteCost', () => {
  it('prices uncached input, cache reads, cache writes and output each at its own list rate', () => {
    const q = quoteCost(['claude-sonnet-4-5'], usage, DEFAULT_PRICE_SETTINGS);
    expect(q).toMatchObject({ kind: 'priced', source: 'list', multiplier: 1, pricedAs: 'anthropic/claude-sonnet-4-5' });
    expect(usd(q)).toBeCloseTo(byHand, 10);
  });

  it('reasoning tokens are inside output: they are not priced a second time', () => {
    const without = quoteCost(['claude-sonnet-4-5'], { ...usage, reasoning: undefined }, DEFAULT_PRICE_SETTINGS);
    expect(usd(without)).toBeCloseTo(usd(quoteCost(['claude-sonnet-4-5'], usage, DEFAULT_PRICE_SETTINGS)), 12);
  });

  it('a prompt over 200K tokens is priced at the higher tier', () => {
    const big = { inputTotal: 300_000, inputCached: 100_000, inputCacheWrite: 50_000, output: 2_000 };
    const tier = (150_000 * 6 + 100_000 * 0.6 + 50_000 * 7.5 + 2_000 * 22.5) / 1e6;
    expect(usd(quoteCost(['claude-sonnet-4-5'], big, DEFAULT_PRICE_SETTINGS))).toBeCloseTo(tier, 10);
  });

  it('matches relay ids the library’s way: a provider prefix and a dated snapshot', () => {
    for (const id of ['anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'Anthropic/Claude-Sonnet-4-5']) {
      expect(usd(quoteCost([id], usage, DEFAULT_PRICE_SETTINGS))).toBeCloseTo(byHand, 10);
    }
  });

  it('the profile’s multiplier scales a list price', () => {
    const q = quoteCost(['claude-sonnet-4-5'], usage, { multiplier: 1.5, overrides: {} });
    expect(q).toMatchObject({ source: 'list', multiplier: 1.5 });
    expect(usd(q)).toBeCloseTo(byHand * 1.5, 10);
  });

  it('an override replaces the list price, cache rates included, and the multiplier does not touch it', () => {
    const rates = { inputMtok: 1, outputMtok: 2, cacheReadMtok: 0.1, cacheWriteMtok: 1.25 };
    const q = quoteCost(['claude-sonnet-4-5'], usage, { multiplier: 3, overrides: { 'claude-sonnet-4-5': rates } });
    expect(q).toMatchObject({ kind: 'priced', source: 'override', multiplier: 1 });
    expect(usd(q)).toBeCloseTo((7_000 * 1 + 2_000 * 0.1 + 1_000 * 1.25 + 1_000 * 2) / 1e6, 12);
  });

  it('an override without cache rates prices cache tokens as input', () => {
    const q = quoteCost(['claude-sim-sonnet'], usage, {
      multiplier: 1,
      overrides: { 'claude-sim-sonnet': { inputMtok: 4, outputMtok: 8 } },
    });
    expect(usd(q)).toBeCloseTo((10_000 * 4 + 1_000 * 8) / 1e6, 12);
  });

  it('an unknown model has no price, not a guess; nor has a run with no usage reported', () => {
    expect(quoteCost(['claude-sim-sonnet'], usage, DEFAULT_PRICE_SETTINGS)).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('claude-sim-sonnet') as string,
    });
    expect(quoteCost(['claude-sonnet-4-5'], {}, DEFAULT_PRICE_SETTINGS)).toMatchObject({ kind: 'none' });
  });

  it('the model asked for is priced before the one reported; a reported snapshot prices an unknown alias', () => {
    const q = quoteCost(['my-relay-alias', 'claude-sonnet-4-5-20250929'], usage, DEFAULT_PRICE_SETTINGS);
    expect(usd(q)).toBeCloseTo(byHand, 10);
  });
});

/** Context windows from the models.dev catalog tokenlens ships: first parties first, prefixes, snapshots. */
import { describe, expect, it } from 'vitest';
import { catalogLimits } from './model-catalog';

describe('catalogLimits', () => {
  it('finds a first party’s model by its id, with or without a provider prefix', async () => {
    const own = await catalogLimits('claude-sonnet-4-20250514');
    expect(own).toEqual({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(await catalogLimits('anthropic/claude-sonnet-4-20250514')).toEqual(own);
    expect(await catalogLimits('anthropic:claude-sonnet-4-20250514')).toEqual(own);
  });

  it('a bare id is the first party’s, not a reseller’s copy with other limits', async () => {
    expect(await catalogLimits('gpt-4o')).toEqual({ contextWindow: 128_000, maxOutput: 16_384 });
  });

  it('a dateless id takes its only dated snapshot; an unknown id gets nothing', async () => {
    expect(await catalogLimits('claude-sonnet-4')).toEqual({ contextWindow: 200_000, maxOutput: 64_000 });
    expect(await catalogLimits('claude-sim-sonnet')).toEqual({});
  });
});

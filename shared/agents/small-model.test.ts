import { describe, expect, it } from 'vitest';
import { defaultSmallModel } from './small-model';

describe('the default small fast model', () => {
  it('is a small model the key lists, Haiku-class first', () => {
    expect(defaultSmallModel(['claude-sim-sonnet', 'gpt-sim-mini', 'claude-sim-haiku'], 'claude-sim-sonnet')).toBe(
      'claude-sim-haiku',
    );
    expect(defaultSmallModel(['gpt-sim-4o', 'gpt-sim-mini'], 'gpt-sim-4o')).toBe('gpt-sim-mini');
  });

  it('is the main model when the key lists no small one', () => {
    expect(defaultSmallModel(['gpt-sim-4o', 'sim-relay-key-pool'], 'sim-relay-key-pool')).toBe('sim-relay-key-pool');
  });
});

import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../../../shared/contract';
import { filterModels, indexModels, relativeTime } from './filter';

const models: ModelInfo[] = [
  { id: 'gpt-sim-4o', family: 'openai', ownedBy: 'openai' },
  { id: 'claude-sim-sonnet', family: 'anthropic', displayName: 'Claude Sim Sonnet' },
  { id: 'my-claude-proxy', family: 'unknown' },
];

describe('model filter', () => {
  it('matches every term, ids starting with the query first', () => {
    const index = indexModels(models);
    expect(filterModels(index, 'claude').map((m) => m.id)).toEqual(['claude-sim-sonnet', 'my-claude-proxy']);
    expect(filterModels(index, 'sim sonnet').map((m) => m.id)).toEqual(['claude-sim-sonnet']);
    expect(filterModels(index, 'OPENAI').map((m) => m.id)).toEqual(['gpt-sim-4o']);
    expect(filterModels(index, '')).toHaveLength(3);
    expect(filterModels(index, 'nothing-like-this')).toEqual([]);
  });

  it('puts the id typed exactly first, before longer ids that start with it', () => {
    const index = indexModels([
      { id: 'gpt-4o-mini', family: 'openai' },
      { id: 'gpt-4o', family: 'openai' },
      { id: 'GPT-4O', family: 'unknown' },
    ]);
    expect(filterModels(index, 'gpt-4o').map((m) => m.id)).toEqual(['gpt-4o', 'gpt-4o-mini', 'GPT-4O']);
    expect(filterModels(index, ' GPT-4O ').map((m) => m.id)).toEqual(['GPT-4O', 'gpt-4o-mini', 'gpt-4o']);
  });

  it('says how old the list is', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(relativeTime(undefined, now)).toBe('never fetched');
    expect(relativeTime('2026-01-01T11:58:00Z', now)).toBe('fetched 2 min ago');
  });
});

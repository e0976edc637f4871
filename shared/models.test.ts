import { describe, expect, it } from 'vitest';
import { diffModelIds, mergeModels, readModelsPage } from './models';

describe('models list normalisation', () => {
  it('reads the first family shape with its pagination cursor', () => {
    const page = readModelsPage({
      data: [
        {
          type: 'model',
          id: 'claude-a',
          display_name: 'Claude A',
          created_at: '2025-10-01T00:00:00Z',
          max_input_tokens: 200_000,
        },
        {
          type: 'model',
          id: 'claude-b',
          display_name: 'Claude B',
          created_at: '2025-09-01T00:00:00Z',
          capabilities: { thinking: { supported: true } },
        },
      ],
      has_more: true,
      first_id: 'claude-a',
      last_id: 'claude-b',
    });
    expect(page).toMatchObject({ hasMore: true, lastId: 'claude-b' });
    if ('error' in page) throw new Error(page.error);
    expect(page.models[0]).toEqual({
      id: 'claude-a',
      family: 'anthropic',
      displayName: 'Claude A',
      createdAt: '2025-10-01T00:00:00Z',
      ownedBy: undefined,
      extra: { max_input_tokens: 200_000 },
    });
    expect(page.models[1].family).toBe('anthropic');
  });

  it('does not take the first family shape alone as evidence: new-api synthesises it for every model it routes', () => {
    // What new-api answers a caller that sends x-api-key and anthropic-version: display_name = id, a placeholder date.
    const page = readModelsPage({
      data: [
        { type: 'model', id: 'gpt-4o', display_name: 'gpt-4o', created_at: '1970-01-01T00:00:00Z' },
        {
          type: 'model',
          id: 'claude-sonnet-4-5',
          display_name: 'claude-sonnet-4-5',
          created_at: '1970-01-01T00:00:00Z',
        },
      ],
      has_more: false,
    });
    if ('error' in page) throw new Error(page.error);
    expect(page.models.map((m) => [m.id, m.family])).toEqual([
      ['gpt-4o', 'unknown'],
      ['claude-sonnet-4-5', 'unknown'],
    ]);
  });

  it('reads owned_by on an entry that also says type "model": the shape does not stop the look at the owner', () => {
    const page = readModelsPage({
      data: [
        { type: 'model', id: 'claude-x', owned_by: 'anthropic' },
        { type: 'model', id: 'gpt-x', owned_by: 'openai' },
        { type: 'model', id: 'relay-x', owned_by: 'channel-7' },
      ],
    });
    if ('error' in page) throw new Error(page.error);
    expect(page.models.map((m) => [m.id, m.family])).toEqual([
      ['claude-x', 'anthropic'],
      ['gpt-x', 'openai'],
      ['relay-x', 'unknown'],
    ]);
  });

  it('reads the second family shape and keeps relay extras as hints', () => {
    const page = readModelsPage({
      object: 'list',
      success: true,
      data: [
        { id: 'gpt-x', object: 'model', created: 1686935002, owned_by: 'openai', supported_endpoint_types: ['openai'] },
        { id: 'claude-c', object: 'model', created: 0, owned_by: 'anthropic' },
        { id: 'relay-pick', object: 'model', created: 0, owned_by: 'custom' },
      ],
    });
    if ('error' in page) throw new Error(page.error);
    expect(page.hasMore).toBe(false);
    expect(page.models.map((m) => [m.id, m.family])).toEqual([
      ['gpt-x', 'openai'],
      ['claude-c', 'anthropic'],
      // A relay's channel name as the owner says nothing about the family.
      ['relay-pick', 'unknown'],
    ]);
    expect(page.models[0].createdAt).toBe('2023-06-16T17:03:22.000Z');
    expect(page.models[0].extra).toEqual({ supported_endpoint_types: ['openai'] });
  });

  it('says what is wrong with a body that is not a list', () => {
    expect(readModelsPage('<html>')).toEqual({ error: 'The models list is not a JSON object.' });
    expect(readModelsPage({ object: 'list' })).toEqual({ error: 'The models list has no data array.' });
  });

  it('merges duplicate ids across pages and shapes', () => {
    const merged = mergeModels([
      [{ id: 'm', family: 'unknown' }],
      [
        { id: 'm', family: 'anthropic', displayName: 'M' },
        { id: 'n', family: 'openai' },
      ],
    ]);
    expect(merged).toEqual([
      { id: 'm', family: 'anthropic', displayName: 'M', createdAt: undefined, ownedBy: undefined, extra: undefined },
      { id: 'n', family: 'openai' },
    ]);
  });

  it('reports which models appeared and disappeared since the last fetch', () => {
    expect(diffModelIds(['a', 'b'], ['b', 'c'])).toEqual({ added: ['c'], removed: ['a'] });
    expect(diffModelIds(undefined, ['a'])).toEqual({ added: [], removed: [] });
  });
});

import { describe, expect, it } from 'vitest';
import type { CollectionsState, Preset } from '../../../../shared/contract';
import { allFolders, buildTree, scopeFor } from './tree';

const p = (name: string, folder?: string[]): Preset =>
  ({
    id: name,
    name,
    tags: [],
    protocol: 'messages',
    body: {},
    stream: false,
    folder,
    createdAt: '',
    updatedAt: '',
  }) as Preset;

describe('collections tree', () => {
  it('puts requests in their folders in order, keeps empty folders, and counts what a run sends', () => {
    const root = buildTree(
      [p('loose'), p('b', ['Smoke']), p('a', ['Smoke']), p('deep', ['Smoke', 'Tools'])],
      [
        { path: ['Empty'], variables: {} },
        { path: ['Smoke'], variables: { x: '1' } },
      ],
    );
    expect(root.requests.map((r) => r.name)).toEqual(['loose']);
    expect(root.folders.map((f) => [f.name, f.total])).toEqual([
      ['Empty', 0],
      ['Smoke', 3],
    ]);
    expect(root.folders[1].requests.map((r) => r.name)).toEqual(['b', 'a']);
    expect(root.folders[1].variables).toEqual({ x: '1' });
    expect(allFolders(root)).toEqual([['Empty'], ['Smoke'], ['Smoke', 'Tools']]);
  });

  it('gives a request the profile variables overridden by each folder down its path', () => {
    const state: CollectionsState = {
      folders: [
        { path: ['A'], variables: { model: 'm1', lang: 'fr' } },
        { path: ['A', 'B'], variables: { model: 'm2' } },
      ],
      profileVariables: { demo: { model: 'm0', team: 't' } },
    };
    expect(scopeFor(state, 'demo', ['A', 'B'])).toEqual({ model: 'm2', lang: 'fr', team: 't' });
    expect(scopeFor(state, 'demo')).toEqual({ model: 'm0', team: 't' });
  });
});

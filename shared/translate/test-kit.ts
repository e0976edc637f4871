/** What the translation tests share: reading a result, finding a loss, and comparing bodies leaf by leaf. */
import { childPath, type Loss, translateRequest, type TranslateResult } from './index';
import { TRANSLATE_CORPUS } from './corpus';
import type { ProtocolId } from '../protocols/types';

export type Json = Record<string, unknown>;

export function ok(r: TranslateResult): { body: Json; losses: Loss[] } {
  if (!r.ok) throw new Error(`translation refused: ${r.reason}`);
  return r;
}

/** The corpus request of that name, translated. */
export function corpus(name: string, to: ProtocolId): { source: Json; body: Json; losses: Loss[] } {
  const entry = TRANSLATE_CORPUS.find((e) => e.name === name);
  if (!entry) throw new Error(`no corpus entry "${name}"`);
  return { source: entry.body, ...ok(translateRequest(entry.protocol, to, entry.body)) };
}

export function lossAt(losses: Loss[], path: string): Loss | undefined {
  return losses.find((l) => l.path === path);
}

export function covers(lossPath: string, path: string): boolean {
  return path === lossPath || path.startsWith(`${lossPath}.`) || path.startsWith(`${lossPath}[`);
}

/** Reads a value by a path built with childPath (the same grammar as Loss.path). */
export function valueAt(root: unknown, path: string): unknown {
  const tokens = path.match(/[A-Za-z_$][A-Za-z0-9_$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\]/g) ?? [];
  let cur: unknown = root;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const key = t.startsWith('[')
      ? t[1] === '"'
        ? (JSON.parse(t.slice(1, -1)) as string)
        : Number(t.slice(1, -1))
      : t;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/**
 * Every leaf of `original` that no loss path covers must be found, equal, in `back`. Array elements a loss
 * says were lost or not translated are gone from `back`, so later siblings are looked up one place
 * earlier: the check is about values, not about indices shifted by a named loss.
 */
export function unchangedLeaves(original: Json, back: Json, losses: Loss[]): string[] {
  const gone = losses.filter((l) => (l.kind === 'lost' || l.kind === 'not-translated') && l.path.endsWith(']'));
  const removed = new Set(gone.map((l) => l.path));
  const problems: string[] = [];
  const walk = (value: unknown, path: string, backPath: string): void => {
    if (losses.some((l) => covers(l.path, path))) return;
    if (Array.isArray(value) && value.length > 0) {
      let k = 0;
      value.forEach((v, i) => {
        const p = childPath(path, i);
        if (removed.has(p)) return;
        walk(v, p, childPath(backPath, k++));
      });
      return;
    }
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [key, v] of Object.entries(value)) walk(v, childPath(path, key), childPath(backPath, key));
      return;
    }
    const got = valueAt(back, backPath);
    if (JSON.stringify(got) !== JSON.stringify(value)) {
      problems.push(`${path}: sent ${JSON.stringify(value)}, came back ${JSON.stringify(got)} at ${backPath}`);
    }
  };
  walk(original, '', '');
  return problems;
}

/** Leaves of `back` the original did not have, unless a first-leg loss covers their path (same paths, no shifts). */
export function addedLeaves(original: Json, back: Json, losses: Loss[]): string[] {
  const added: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value) && value.length > 0) return value.forEach((v, i) => walk(v, childPath(path, i)));
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [key, v] of Object.entries(value)) walk(v, childPath(path, key));
      return;
    }
    if (valueAt(original, path) === undefined && !losses.some((l) => covers(l.path, path)))
      added.push(`${path}: ${JSON.stringify(value)}`);
  };
  walk(back, '');
  return added;
}

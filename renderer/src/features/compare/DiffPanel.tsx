import { useMemo } from 'react';
import { diffWords } from 'diff';
import type { RunResult } from '../../../../shared/contract';
import { textOf } from './column-body';
import { DiffSides } from '../../lib/DiffSides';

interface DiffPanelProps {
  results: (RunResult | undefined)[];
  pair: [number, number];
  onPair: (pair: [number, number]) => void;
}

/** A word diff of two columns' outputs, the pair chosen by the user. */
export function DiffPanel({ results, pair, onPair }: DiffPanelProps) {
  const [a, b] = pair;
  const left = results[a];
  const right = results[b];
  const diff = useMemo(
    () => (left && right ? diffWords(textOf(left.transcript), textOf(right.transcript)) : undefined),
    [left, right],
  );
  const choices = results.map((_, i) => (
    <option key={i} value={i}>
      column {i + 1}
    </option>
  ));
  return (
    <>
      <div className="row">
        <span className="label">Diff</span>
        <select aria-label="Diff left" value={a} onChange={(e) => onPair([Number(e.target.value), b])}>
          {choices}
        </select>
        <select aria-label="Diff right" value={b} onChange={(e) => onPair([a, Number(e.target.value)])}>
          {choices}
        </select>
      </div>
      {diff ? (
        <DiffSides parts={diff} label="Output diff" />
      ) : (
        <p className="muted small">Run two columns to compare their outputs word by word.</p>
      )}
    </>
  );
}

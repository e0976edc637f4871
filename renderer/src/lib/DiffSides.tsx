import type { Change } from 'diff';

/** Two sides of a diff: what only the first run has struck out on the left, what only the second has on the right. */
export function DiffSides({ parts, label }: { parts: Change[]; label: string }) {
  return (
    <div className="diff" aria-label={label}>
      <div className="diff-side">
        {parts.map((p, k) =>
          p.added ? null : (
            <span key={k} className={p.removed ? 'removed' : ''}>
              {p.value}
            </span>
          ),
        )}
      </div>
      <div className="diff-side">
        {parts.map((p, k) =>
          p.removed ? null : (
            <span key={k} className={p.added ? 'added' : ''}>
              {p.value}
            </span>
          ),
        )}
      </div>
    </div>
  );
}

import type { Loss } from '../../../../shared/translate';

/** What a translation did to a field, as the user reads it: a field the target needs and got is not a loss. */
export type ChangeKind = 'lost' | 'changed' | 'added';

/** A field the target needed and got counts as added; a field left untranslated counts as lost. */
export function changeKind(loss: Loss): ChangeKind {
  return loss.kind === 'not-translated' ? 'lost' : loss.kind;
}

/** "2 lost · 1 changed · 1 added", or "nothing lost" for a clean translation. */
export function changeSummary(losses: Loss[]): string {
  const counts: Record<ChangeKind, number> = { lost: 0, changed: 0, added: 0 };
  for (const l of losses) counts[changeKind(l)]++;
  const parts = (['lost', 'changed', 'added'] as const).filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  return parts.length ? parts.join(' · ') : 'nothing lost';
}

/** One list for every place a translation is shown (Bring along, Compare's columns, a preset's translation). */
export function LossList({ losses, label }: { losses: Loss[]; label: string }) {
  return (
    <ul className="losses" aria-label={label}>
      {losses.map((l, i) => {
        const kind = changeKind(l);
        return (
          <li key={i} className={`loss ${kind}`}>
            <span className="badge">{kind}</span>{' '}
            <span className="mono">{kind === 'added' ? (l.to ?? l.path) : l.path}</span> — {l.reason}
            {kind !== 'added' && l.to ? <span className="mono muted"> → {l.to}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

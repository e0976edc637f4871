/**
 * History's grouped list: the runs of one check (a Capabilities row's probes, an agent check's steps, a connected
 * session's requests) as one row, "Capabilities · claude-sim-sonnet · 12 probes", where its newest run would
 * be; an expanded check's runs follow its row. A pinned run is never folded away into a group.
 */
import type { HistorySummary } from '../../shared/contract';

export function groupRows(runs: readonly HistorySummary[], expanded: ReadonlySet<string>): HistorySummary[] {
  const members = new Map<string, HistorySummary[]>();
  for (const r of runs) {
    if (!r.check || r.pinned) continue;
    const list = members.get(r.check.id);
    if (list) list.push(r);
    else members.set(r.check.id, [r]);
  }
  if (members.size === 0) return [...runs];
  const out: HistorySummary[] = [];
  for (const r of runs) {
    const group = r.check && !r.pinned ? members.get(r.check.id) : undefined;
    if (!group) {
      out.push(r);
      continue;
    }
    if (group[0] !== r) continue;
    out.push({ ...r, groupCount: group.length });
    if (expanded.has(r.check!.id)) out.push(...group);
  }
  return out;
}

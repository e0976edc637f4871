import type { ReactNode } from 'react';
import { lazyPart, type Placeholder } from '../../lib/lazy-part';

/**
 * The tabs past the protocol tabs, each its own chunk, fetched when the tab is first opened
 * (docs/architecture.md §9). Until then the tab shows a panel of its name; "Loading…" appears only if the chunk
 * takes long enough to be noticed, so a quick load does not flash it.
 */
const panel =
  (label: string): Placeholder<object> =>
  (_props, failure?: ReactNode) => (
    <div className="tab-loading" role="tabpanel" aria-label={label} aria-busy={failure ? undefined : true}>
      {failure ?? (
        <p className="muted" role="status">
          Loading {label}…
        </p>
      )}
    </div>
  );

export const CompareTab = lazyPart(
  () => import('../compare/CompareTab').then((m) => m.CompareTab),
  'the Compare tab',
  panel('Compare'),
);
export const HistoryTab = lazyPart(
  () => import('../library/HistoryTab').then((m) => m.HistoryTab),
  'the History tab',
  panel('History'),
);
export const PresetsTab = lazyPart(
  () => import('../library/PresetsTab').then((m) => m.PresetsTab),
  'the Presets tab',
  panel('Presets'),
);
export const CapabilitiesTab = lazyPart(
  () => import('../capabilities/CapabilitiesTab').then((m) => m.CapabilitiesTab),
  'the Capabilities tab',
  panel('Capabilities'),
);
export const LoadTab = lazyPart(() => import('../load/LoadTab').then((m) => m.LoadTab), 'the Load tab', panel('Load'));
export const AgentsTab = lazyPart(
  () => import('../agents/AgentsTab').then((m) => m.AgentsTab),
  'the Agents tab',
  panel('Agents'),
);

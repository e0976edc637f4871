import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PROTOCOL_INFO, type ProtocolId } from '../../shared/protocols/types';
import { gateway } from './bridge';
import { STALE_LINK_MESSAGE } from './stale-link';
import type { TabId } from './store/composer-slice';
import { Composer } from './features/composer/Composer';
import { RequestTabs } from './features/composer/RequestTabs';
import { ProfilePicker } from './features/connection/ProfilePicker';
import { StreamViewer } from './features/stream-viewer/StreamViewer';
import { useRetry } from './features/stream-viewer/use-retry';
import { AgentsTab, CapabilitiesTab, CompareTab, HistoryTab, LoadTab, PresetsTab } from './features/shell/lazy-tabs';
import { lazyPart } from './lib/lazy-part';
import { useAppStore } from './store';
import { useRunUpdates, type ViewUpdate } from './store/runs-slice';
import { bringPair } from './store/settings-slice';
import { ShortcutsDialog } from './features/shell/ShortcutsDialog';
import { ThemePicker } from './features/shell/ThemePicker';
import { PricesButton } from './features/pricing/PricesDialog';
import { TAB_ORDER, tabKeyTarget, type ShortcutAction } from './features/shell/shortcuts';
import { runShortcut, useGlobalShortcuts, useTheme } from './features/shell/use-shell';
import { isProtocolTab } from './features/shell/tabs';

const isProtocol = isProtocolTab;

/** The Bring offer shows only after a switch of protocol tabs: it and the translation are a chunk of their own. */
const BringAlong = lazyPart(
  () => import('./features/translate/BringAlong').then((m) => m.BringAlong),
  'the Bring offer',
  (_, failure) => failure ?? null,
);

const OTHER_TABS = {
  compare: { label: 'Compare', sub: 'side by side' },
  history: { label: 'History', sub: 'every run, replay' },
  presets: { label: 'Presets', sub: 'collections, runs' },
  capabilities: { label: 'Capabilities', sub: 'proof matrix' },
  load: { label: 'Load', sub: 'latency under load' },
  agents: { label: 'Agents', sub: 'will my agent work' },
};

/**
 * The tab list, in TAB_ORDER. A tab's accessible name is all its visible text, label first ("Messages
 * /v1/messages"): WCAG 2.5.3 wants the name to contain what is seen, and the e2e tests find a tab by its start.
 */
const TABS: { id: TabId; label: string; sub: string; mono?: boolean }[] = TAB_ORDER.map((id) =>
  isProtocol(id)
    ? { id, label: PROTOCOL_INFO[id].label, sub: PROTOCOL_INFO[id].path, mono: true }
    : { id, ...OTHER_TABS[id] },
);

interface ProtocolTabProps {
  protocol: ProtocolId;
  bringFrom?: ProtocolId;
  onBrought: () => void;
  onDismissed: () => void;
}

/** A request's last run after a restart (or one run so far on another tab) comes from History into the viewer. */
function useRecordedRun(runId: string | undefined) {
  const known = useAppStore((s) => !!runId && !!s.runs[runId]);
  const recordedRunRequested = useAppStore((s) => s.recordedRunRequested);
  useEffect(() => {
    if (runId && !known) void recordedRunRequested(runId);
  }, [runId, known, recordedRunRequested]);
}

function ProtocolTab({ protocol, bringFrom, onBrought, onDismissed }: ProtocolTabProps) {
  const runId = useAppStore((s) => s.composers[protocol].activeRunId);
  const requestId = useAppStore((s) => s.requests[protocol].activeId);
  const { retry, error: retryError } = useRetry();
  useRecordedRun(runId);
  return (
    <div className="workspace" role="tabpanel" aria-label={PROTOCOL_INFO[protocol].label}>
      <div className="left">
        <RequestTabs protocol={protocol} />
        {bringFrom && <BringAlong from={bringFrom} to={protocol} onDone={onBrought} onDismiss={onDismissed} />}
        {/* Each request is its own composer: nothing typed in one (a field being edited) leaks into another. */}
        <Composer key={requestId} protocol={protocol} />
      </div>
      <div className="right">
        {retryError && (
          <p className="field-error" role="alert">
            {retryError}
          </p>
        )}
        <StreamViewer runId={runId} onRetry={retry} />
      </div>
    </div>
  );
}

export function App() {
  const windowOpened = useAppStore((s) => s.windowOpened);
  const hostUp = useAppStore((s) => s.hostUp);
  const hostStale = useAppStore((s) => s.hostStale);
  const problems = useAppStore((s) => s.appInfo?.problems);
  const activeTab = useAppStore((s) => s.activeTab);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const runUpdatesReceived = useAppStore((s) => s.runUpdatesReceived);
  const probeProgressReceived = useAppStore((s) => s.probeProgressReceived);
  const loadProgressReceived = useAppStore((s) => s.loadProgressReceived);
  const collectionRunProgressed = useAppStore((s) => s.collectionRunProgressed);
  const agentSessionUpdated = useAppStore((s) => s.agentSessionUpdated);
  const [bring, setBring] = useState<{ from: ProtocolId; to: ProtocolId }>();
  /** Requests whose offer was taken or turned down: the same request is not offered again, on any tab. */
  const handledOffers = useRef(new Set<string>());
  /** A tab's request as it is now (read when the offer is answered: the model may have been filled in since). */
  const requestKey = (from: ProtocolId) => `${from}:${JSON.stringify(useAppStore.getState().composers[from].body)}`;
  const bringDismissed = useAppStore((s) => s.settings.bringDismissed);
  const bringOfferDismissed = useAppStore((s) => s.bringOfferDismissed);
  const [help, setHelp] = useState(false);
  /** The problems the user dismissed: a new one (a history save failing later) shows again. */
  const [problemsDismissed, setProblemsDismissed] = useState<string>();
  const problemsKey = problems?.map((p) => p.message).join('\n');

  // Once per window (main.tsx has usually asked already): the first screen's data and the link's state.
  useEffect(() => void windowOpened(), [windowOpened]);
  useRunUpdates(useCallback((u: ViewUpdate[]) => runUpdatesReceived(u), [runUpdatesReceived]));
  useEffect(() => gateway.on.capabilitiesProgress(probeProgressReceived), [probeProgressReceived]);
  useEffect(() => gateway.on.loadProgress(loadProgressReceived), [loadProgressReceived]);
  useEffect(() => gateway.on.agentsUpdate(agentSessionUpdated), [agentSessionUpdated]);
  useEffect(() => gateway.on.collectionsProgress(collectionRunProgressed), [collectionRunProgressed]);

  const select = (tab: TabId) => {
    const between = isProtocol(tab) && isProtocol(activeTab) && tab !== activeTab;
    const from = isProtocol(activeTab) ? activeTab : undefined;
    const offer =
      between && from && !bringDismissed.includes(bringPair(from, tab)) && !handledOffers.current.has(requestKey(from));
    if (offer) setBring({ from, to: tab });
    else if (tab !== activeTab) setBring(undefined);
    tabSelected(tab);
  };
  const selectRef = useRef(select);
  useLayoutEffect(() => {
    selectRef.current = select;
  });

  /** WAI-ARIA tabs: arrows move the focus and the selection along the list (roving tabindex). */
  const onTabKey = (e: KeyboardEvent<HTMLElement>) => {
    const at = TAB_ORDER.indexOf(activeTab);
    const to = tabKeyTarget(e.key, at, TAB_ORDER.length);
    if (to === undefined) return;
    e.preventDefault();
    select(TAB_ORDER[to]);
    e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus();
  };

  useGlobalShortcuts(
    useCallback((action: ShortcutAction) => {
      if (action.kind === 'tab') selectRef.current(action.tab);
      else if (action.kind === 'help') setHelp(true);
      else return runShortcut(action);
    }, []),
  );
  useTheme();

  return (
    <div className="app" data-app-state="ready">
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden>
            ◆
          </span>{' '}
          Gateway Playground
        </div>
        <ProfilePicker />
        <PricesButton />
        <ThemePicker />
        <button
          type="button"
          className="ghost small"
          aria-label="Keyboard shortcuts"
          aria-keyshortcuts="?"
          onClick={() => setHelp(true)}
        >
          ?
        </button>
      </header>
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
      {hostStale ? (
        <div className="banner warn" role="alert" aria-label="Old link">
          {STALE_LINK_MESSAGE}
        </div>
      ) : (
        !hostUp && (
          <div className="banner warn" role="alert">
            The connection to the app host dropped — reconnecting…
          </div>
        )
      )}
      {problems && problems.length > 0 && problemsDismissed !== problemsKey && (
        <div className="banner warn" role="alert" aria-label="Data folder problems">
          {problems.map((p) => (
            <div key={p.file}>{p.message}</div>
          ))}
          <button type="button" className="ghost small" onClick={() => setProblemsDismissed(problemsKey)}>
            Dismiss
          </button>
        </div>
      )}
      <nav className="tabs" role="tablist" aria-label="Protocols" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={activeTab === t.id}
            aria-keyshortcuts={`Control+${TAB_ORDER.indexOf(t.id) + 1}`}
            tabIndex={activeTab === t.id ? 0 : -1}
            className={activeTab === t.id ? 'selected' : ''}
            onClick={() => select(t.id)}
          >
            {t.label} <span className={t.mono ? 'path mono' : 'path'}>{t.sub}</span>
          </button>
        ))}
      </nav>
      {activeTab === 'compare' ? (
        <CompareTab />
      ) : activeTab === 'capabilities' ? (
        <CapabilitiesTab />
      ) : activeTab === 'agents' ? (
        <AgentsTab />
      ) : activeTab === 'history' ? (
        <HistoryTab />
      ) : activeTab === 'presets' ? (
        <PresetsTab />
      ) : activeTab === 'load' ? (
        <LoadTab />
      ) : (
        <ProtocolTab
          key={activeTab}
          protocol={activeTab}
          bringFrom={bring?.to === activeTab ? bring.from : undefined}
          onBrought={() => {
            if (bring) handledOffers.current.add(requestKey(bring.from));
            setBring(undefined);
          }}
          onDismissed={() => {
            if (bring) {
              handledOffers.current.add(requestKey(bring.from));
              void bringOfferDismissed(bring.from, bring.to);
            }
            setBring(undefined);
          }}
        />
      )}
    </div>
  );
}

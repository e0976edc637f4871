import { useCallback, useEffect, useState } from 'react';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../shared/protocols/types';
import { gateway, onHostConnection } from './bridge';
import type { TabId } from './store/composer-slice';
import { Composer } from './features/composer/Composer';
import { ProfilePicker } from './features/connection/ProfilePicker';
import { StreamViewer } from './features/stream-viewer/StreamViewer';
import { BringAlong } from './features/translate/BringAlong';
import { CapabilitiesTab } from './features/capabilities/CapabilitiesTab';
import { CompareTab } from './features/compare/CompareTab';
import { AgentsTab } from './features/agents/AgentsTab';
import { HistoryTab } from './features/library/HistoryTab';
import { PresetsTab } from './features/library/PresetsTab';
import { useAppStore } from './store';
import { useRunUpdates, type ViewUpdate } from './store/runs-slice';

function ProtocolTab({ protocol, bringFrom, onBrought }: { protocol: ProtocolId; bringFrom?: ProtocolId; onBrought: () => void }) {
  const runId = useAppStore((s) => s.composers[protocol].activeRunId);
  return (
    <div className="workspace" role="tabpanel" aria-label={PROTOCOL_INFO[protocol].label}>
      <div className="left">
        {bringFrom && <BringAlong from={bringFrom} to={protocol} onDone={onBrought} />}
        <Composer protocol={protocol} />
      </div>
      <div className="right">
        <StreamViewer runId={runId} />
      </div>
    </div>
  );
}

export function App() {
  const appStarted = useAppStore((s) => s.appStarted);
  const hostUp = useAppStore((s) => s.hostUp);
  const problems = useAppStore((s) => s.appInfo?.problems);
  const activeTab = useAppStore((s) => s.activeTab);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const hostConnectionChanged = useAppStore((s) => s.hostConnectionChanged);
  const runUpdatesReceived = useAppStore((s) => s.runUpdatesReceived);
  const probeProgressReceived = useAppStore((s) => s.probeProgressReceived);
  const [bring, setBring] = useState<{ from: ProtocolId; to: ProtocolId }>();
  /** The problems the user dismissed: a new one (a history save failing later) shows again. */
  const [problemsDismissed, setProblemsDismissed] = useState<string>();
  const problemsKey = problems?.map((p) => p.message).join('\n');

  useEffect(() => {
    void appStarted();
    return onHostConnection(hostConnectionChanged);
  }, [appStarted, hostConnectionChanged]);
  useRunUpdates(useCallback((u: ViewUpdate[]) => runUpdatesReceived(u), [runUpdatesReceived]));
  useEffect(() => gateway.on.capabilitiesProgress(probeProgressReceived), [probeProgressReceived]);

  const select = (tab: TabId) => {
    const isProtocol = (t: TabId): t is ProtocolId => (PROTOCOL_IDS as readonly string[]).includes(t);
    if (tab !== activeTab && isProtocol(tab) && isProtocol(activeTab)) setBring({ from: activeTab, to: tab });
    tabSelected(tab);
  };

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
      </header>
      {!hostUp && (
        <div className="banner warn" role="alert">
          The connection to the app host dropped — reconnecting…
        </div>
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
      <nav className="tabs" role="tablist" aria-label="Protocols">
        {PROTOCOL_IDS.map((p) => (
          <button key={p} type="button" role="tab" aria-label={PROTOCOL_INFO[p].label} aria-selected={activeTab === p} className={activeTab === p ? 'selected' : ''} onClick={() => select(p)}>
            {PROTOCOL_INFO[p].label}
            <span className="path mono">{PROTOCOL_INFO[p].path}</span>
          </button>
        ))}
        <button type="button" role="tab" aria-label="Compare" aria-selected={activeTab === 'compare'} className={activeTab === 'compare' ? 'selected' : ''} onClick={() => select('compare')}>
          Compare
          <span className="path">side by side</span>
        </button>
        {(['history', 'presets'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-label={t === 'history' ? 'History' : 'Presets'} aria-selected={activeTab === t} className={activeTab === t ? 'selected' : ''} onClick={() => select(t)}>
            {t === 'history' ? 'History' : 'Presets'}
            <span className="path">{t === 'history' ? 'every run, replay' : 'saved requests'}</span>
          </button>
        ))}
        <button type="button" role="tab" aria-label="Capabilities" aria-selected={activeTab === 'capabilities'} className={activeTab === 'capabilities' ? 'selected' : ''} onClick={() => select('capabilities')}>
          Capabilities
          <span className="path">proof matrix</span>
        </button>
        <button type="button" role="tab" aria-label="Agents" aria-selected={activeTab === 'agents'} className={activeTab === 'agents' ? 'selected' : ''} onClick={() => select('agents')}>
          Agents
          <span className="path">will my agent work</span>
        </button>
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
      ) : (
        <ProtocolTab key={activeTab} protocol={activeTab} bringFrom={bring?.to === activeTab ? bring.from : undefined} onBrought={() => setBring(undefined)} />
      )}
    </div>
  );
}

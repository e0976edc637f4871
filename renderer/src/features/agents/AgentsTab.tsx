import { useEffect, useMemo, useState } from 'react';
import { AGENT_IDS, AGENTS, agentResultKey, type AgentId } from '../../../../shared/agents/types';
import { defaultSmallModel } from '../../../../shared/agents/small-model';
import type { AgentResultView } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { AgentMatrix } from './AgentMatrix';
import { AgentVerdict } from './AgentVerdict';
import { ModelSelect, ReportButtons, SweepProgress } from './AgentControls';
import { AgentSession } from './AgentSession';
import { plural } from '../../../../shared/plural';

const EMPTY: AgentResultView[] = [];

/**
 * Agent readiness (docs/agents.md): will Codex CLI, Claude Code or a chat-completions agent work through this
 * gateway with this model. One check replays the agent's own session; Check all fills the agents × models matrix.
 */
export function AgentsTab() {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const models = useAppStore((s) => (profileId ? s.models[profileId]?.models : undefined));
  const list = useAppStore((s) => (profileId ? s.agentResults[profileId] : undefined));
  const running = useAppStore((s) => s.agentChecksRunning);
  const sweep = useAppStore((s) => s.agentSweep);
  const agentResultsRequested = useAppStore((s) => s.agentResultsRequested);
  const agentCheckRequested = useAppStore((s) => s.agentCheckRequested);
  const agentCheckAllRequested = useAppStore((s) => s.agentCheckAllRequested);
  const agentCheckAllStopped = useAppStore((s) => s.agentCheckAllStopped);
  const savedReplays = useAppStore((s) => s.savedReplays);
  const savedReplaysRequested = useAppStore((s) => s.savedReplaysRequested);
  // An agent's id, or `replay:<id>` for a saved session (docs/agents.md "Saved replays").
  const [choice, setChoice] = useState<string>('codex');
  const [model, setModel] = useState('');
  const [smallModel, setSmallModel] = useState('');
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (profileId) void agentResultsRequested(profileId);
  }, [profileId, agentResultsRequested]);
  useEffect(() => void savedReplaysRequested(), [savedReplaysRequested]);

  const replay = savedReplays.find((r) => `replay:${r.id}` === choice);
  const agent: AgentId = replay?.agent ?? (AGENT_IDS.find((a) => a === choice) || 'codex');
  const replayId = replay?.id;

  const ids = useMemo(() => (models ?? []).map((m) => m.id), [models]);
  // A chosen model stays chosen only while this profile lists it.
  const chosen = ids.includes(model) ? model : (ids[0] ?? '');
  const small = ids.includes(smallModel) ? smallModel : defaultSmallModel(ids, chosen);
  const results = list?.results ?? EMPTY;
  const shown = results.find((r) => agentResultKey(r) === agentResultKey({ agent, model: chosen, replayId }));
  const busy = !!sweep || Object.keys(running).some((k) => k.startsWith(`${profileId}|`));
  const checking = profileId ? running[`${profileId}|${agent}|${chosen}${replayId ? `|${replayId}` : ''}`] : undefined;

  const check = async () => {
    if (!profileId || !chosen) return;
    const err = await agentCheckRequested({
      profileId,
      agent,
      model: chosen,
      ...(AGENTS[agent].hasSmallModel ? { smallModel: small } : {}),
      ...(replayId ? { replayId } : {}),
    });
    setError(err?.message);
  };
  const checkAll = async () => {
    if (!profileId || !ids.length) return;
    const err = await agentCheckAllRequested(profileId, ids, ids.includes(smallModel) ? smallModel : undefined);
    setError(err?.message);
  };

  return (
    <div className="agents" role="tabpanel" aria-label="Agents">
      <div className="cap-toolbar">
        <p className="muted small">
          Replays each agent’s own requests turn by turn and judges them on evidence: a tool call that validates,
          reasoning accepted when sent back, a cache read on the repeat, usage at the end.
        </p>
        <label>
          Agent{' '}
          <select aria-label="Agent" value={replay ? choice : agent} onChange={(e) => setChoice(e.target.value)}>
            {AGENT_IDS.map((a) => (
              <option key={a} value={a}>
                {AGENTS[a].label} ({AGENTS[a].endpoints})
              </option>
            ))}
            {savedReplays.length > 0 && (
              <optgroup label="Saved replays">
                {savedReplays.map((r) => (
                  <option key={r.id} value={`replay:${r.id}`}>
                    {r.name} (saved, {r.client})
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <ModelSelect label="Model" ids={ids} value={chosen} onChange={setModel} />
        {AGENTS[agent].hasSmallModel && (
          <ModelSelect label="Small fast model" ids={ids} value={small} onChange={setSmallModel} />
        )}
        <button type="button" className="primary" disabled={!chosen || busy} onClick={() => void check()}>
          {checking ? 'Checking…' : 'Check'}
        </button>
        <button type="button" disabled={!ids.length || busy} onClick={() => void checkAll()}>
          Check all ({plural(ids.length, 'model')} × {plural(AGENT_IDS.length, 'agent')})
        </button>
        {sweep && <SweepProgress sweep={sweep} onStop={agentCheckAllStopped} />}
        {profileId && <ReportButtons profileId={profileId} onError={setError} />}
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
      <AgentSession profileId={profileId} model={chosen} smallModel={small} />
      <div className="cap-body">
        <AgentMatrix
          models={ids}
          results={results}
          selected={{ agent, model: chosen }}
          onSelect={(a, m) => {
            setChoice(a);
            setModel(m);
          }}
        />
        <aside className="cell-detail">
          {shown ? (
            <AgentVerdict key={agentResultKey(shown) + shown.at} result={shown} onError={setError} />
          ) : (
            <p className="muted">
              {checking
                ? 'Checking…'
                : `${replay ? `“${replay.name}”` : AGENTS[agent].label} has not been checked on ${chosen || 'a model'} yet: press Check.`}
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}

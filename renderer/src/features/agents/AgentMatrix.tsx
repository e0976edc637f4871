import { useMemo } from 'react';
import { formatAge } from '../../../../shared/capabilities';
import { AGENT_IDS, AGENTS, agentResultKey, type AgentId } from '../../../../shared/agents/types';
import { LEVEL_WORDS } from '../../../../shared/agents/verdict';
import type { AgentResultView } from '../../../../shared/contract';
import { useNow } from '../../lib/use-now';

const MARK = { ready: '✓', degraded: '!', 'not-ready': '✗' } as const;

/** Agents × the profile's models: each cell its verdict and how long ago it was measured; a click shows it. */
export function AgentMatrix(props: {
  models: string[];
  results: AgentResultView[];
  selected: { agent: AgentId; model: string };
  onSelect(agent: AgentId, model: string): void;
}) {
  const byKey = useMemo(() => new Map(props.results.map((r) => [agentResultKey(r), r])), [props.results]);
  // The ages move on while the matrix is shown (formatAge counts seconds under a minute).
  const now = useNow(1000);
  return (
    <div className="matrix-wrap">
      <table className="matrix" aria-label="Agent matrix">
        <thead>
          <tr>
            <th>model</th>
            {AGENT_IDS.map((a) => (
              <th key={a} className="proto">
                {AGENTS[a].label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.models.map((model) => (
            <tr key={model}>
              <th className="row-head">
                <span className="mono">{model}</span>
              </th>
              {AGENT_IDS.map((agent) => {
                const r = byKey.get(agentResultKey({ agent, model }));
                const sel = props.selected.agent === agent && props.selected.model === model;
                const words = r ? `${LEVEL_WORDS[r.level]}, ${formatAge(now - Date.parse(r.at))} ago` : 'not checked';
                return (
                  <td key={agent}>
                    <button
                      type="button"
                      className={`cell agent-cell ${r?.level ?? 'none'} ${sel ? 'sel' : ''}`}
                      aria-label={`${model} ${AGENTS[agent].label}: ${words}`}
                      title={r ? r.verdict : 'not checked'}
                      onClick={() => props.onSelect(agent, model)}
                    >
                      {r ? MARK[r.level] : '·'}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {!props.models.length && <p className="muted empty">No models listed for this profile yet.</p>}
    </div>
  );
}

import { useEffect, useState } from 'react';
import type { AgentTurn } from '../../../../shared/contract';
import { connectLines, type PasteLine } from '../../../../shared/agents/connect-lines';
import { useAppStore } from '../../store';
import { copyText } from '../stream-viewer/format';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import './agent-session.css';

const ms = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v)} ms`);

/**
 * "Connect an agent" (docs/agents.md, "Connect a real agent"): the endpoint a real Claude Code, Codex or
 * chat-completions agent uses as its gateway, the lines to paste, and each turn as it happens with its verdict
 * and, where it failed, what the agent does next.
 */
export function AgentSession({
  profileId,
  model,
  smallModel,
}: {
  profileId: string | undefined;
  model: string;
  smallModel: string;
}) {
  const connection = useAppStore((s) => s.agentConnection);
  const turns = useAppStore((s) => s.agentTurns);
  const ended = useAppStore((s) => s.agentSessionEnded);
  const agentSessionRequested = useAppStore((s) => s.agentSessionRequested);
  const connect = useAppStore((s) => s.agentConnectRequested);
  const disconnect = useAppStore((s) => s.agentDisconnectRequested);
  const recordedRunRequested = useAppStore((s) => s.recordedRunRequested);
  const [error, setError] = useState<string>();
  const [shown, setShown] = useState<string>();
  // One connect at a time: a second click while the first is opening would open a second session.
  const [connecting, setConnecting] = useState(false);

  useEffect(() => void agentSessionRequested(), [agentSessionRequested]);

  const open = async (runId: string) => {
    const err = await recordedRunRequested(runId);
    setError(err?.message);
    setShown(err ? undefined : runId);
  };

  if (!connection)
    return (
      <div className="agent-connect">
        <button
          type="button"
          disabled={!profileId || connecting}
          onClick={() => {
            if (!profileId) return;
            setConnecting(true);
            void connect(profileId).then((e) => {
              setConnecting(false);
              setError(e?.message);
            });
          }}
        >
          Connect an agent
        </button>{' '}
        <span className="muted small">
          Run the real Claude Code, Codex or a chat-completions agent through this profile; every turn is judged and
          kept in History.{ended ? ` The last session ended: ${ended}` : ''}
        </span>
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
    );

  const lines = connectLines(connection.baseUrl, connection.token, model || undefined, smallModel || undefined);
  return (
    <section className="agent-session" role="region" aria-label="Agent session">
      <p>
        Listening on <span className="mono">{connection.baseUrl}</span> for {connection.profileName}. The agent’s key is
        this session’s local token; the profile’s key stays in the app.{' '}
        <button type="button" onClick={() => void disconnect().then((e) => setError(e?.message))}>
          Disconnect
        </button>
      </p>
      <div className="paste-lines">
        {lines.map((line) => (
          <Line key={line.id} line={line} />
        ))}
      </div>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <TurnTable turns={turns} onOpen={(runId) => void open(runId)} />
      <SaveReplay turns={turns} />
      {shown && (
        <div className="evidence-viewer">
          <StreamViewer runId={shown} />
        </div>
      )}
    </section>
  );
}

function Line({ line }: { line: PasteLine }) {
  return (
    <figure className="paste-line">
      <figcaption>
        {line.label}{' '}
        <button type="button" aria-label={`Copy ${line.label}`} onClick={() => void copyText(line.text)}>
          Copy
        </button>
      </figcaption>
      <pre className="mono" aria-label={line.label}>
        {line.text}
      </pre>
    </figure>
  );
}

function TurnTable({ turns, onOpen }: { turns: AgentTurn[]; onOpen(runId: string): void }) {
  if (turns.length === 0) return <p className="muted small">No turn yet: start the agent with a line above.</p>;
  return (
    <table className="agent-turns" aria-label="Agent turns">
      <thead>
        <tr>
          <th>Request</th>
          <th>Model</th>
          <th>Status</th>
          <th>Verdict</th>
          <th>TTFT</th>
          <th>Tokens in / out</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {turns.map((t, i) => (
          <TurnRow key={t.runId} turn={t} n={i + 1} onOpen={onOpen} />
        ))}
      </tbody>
    </table>
  );
}

function TurnRow({ turn: t, n, onOpen }: { turn: AgentTurn; n: number; onOpen(runId: string): void }) {
  return (
    <>
      <tr className={t.verdict && t.verdict !== 'complete' ? 'failed' : undefined}>
        <td className="mono">
          {t.method} {t.path}
        </td>
        <td className="mono">{t.model ?? '—'}</td>
        <td>{t.status ?? '…'}</td>
        <td title={t.reason}>{t.verdict ?? 'in flight'}</td>
        <td>{ms(t.ttftMs)}</td>
        <td>
          {t.inputTokens ?? '—'} / {t.outputTokens ?? '—'}
        </td>
        <td>
          {t.verdict && (
            <button type="button" aria-label={`Open turn ${n}`} onClick={() => onOpen(t.runId)}>
              Open
            </button>
          )}
        </td>
      </tr>
      {t.next && (
        <tr className="agent-next">
          <td colSpan={7}>
            {t.reason} <strong>Next:</strong> {t.next}
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * "Save as replay" (docs/agents.md "Saved replays"): the session's requests kept in the core, scrubbed, and
 * offered in the Agent list so that Check replays them on any model and profile.
 */
function SaveReplay({ turns }: { turns: AgentTurn[] }) {
  const replaySaveRequested = useAppStore((s) => s.replaySaveRequested);
  const ended = turns.filter((t) => t.verdict);
  const first = ended.find((t) => t.model);
  const [name, setName] = useState('');
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();
  if (ended.length === 0) return null;
  const fallback = `${first?.agent ?? 'agent'} on ${first?.model ?? 'a model'}`;
  const save = async () => {
    const r = await replaySaveRequested(
      name.trim() || fallback,
      ended.map((t) => t.runId),
    );
    setSaid(
      r.ok
        ? { ok: true, text: `Saved as “${r.value.name}”: pick it under Agent to check it on another model or profile.` }
        : { ok: false, text: r.error.message },
    );
  };
  return (
    <div className="agent-save-replay">
      <label>
        Replay name{' '}
        <input aria-label="Replay name" value={name} placeholder={fallback} onChange={(e) => setName(e.target.value)} />
      </label>{' '}
      <button type="button" onClick={() => void save()}>
        Save as replay
      </button>{' '}
      {said && (
        <span className={said.ok ? 'muted small' : 'field-error'} role={said.ok ? 'status' : 'alert'}>
          {said.text}
        </span>
      )}
    </div>
  );
}

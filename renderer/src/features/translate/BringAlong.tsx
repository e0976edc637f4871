import { useEffect, useMemo, useState } from 'react';
import type { GuardReport } from '../../../../shared/contract';
import { PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { translateRequest } from '../../../../shared/translate';
import { useAppStore } from '../../store';
import { changeSummary, LossList } from './LossList';

/**
 * Offered when the user switches tabs: bring the other tab's request here, translated, with everything the
 * translation loses and every capability the request uses checked against this model × protocol — all shown
 * before anything is sent.
 */
interface BringAlongProps {
  from: ProtocolId;
  to: ProtocolId;
  /** Brought along, or the translation closed. */
  onDone: () => void;
  /** The user said no to the offer: remembered for this pair of tabs. */
  onDismiss?: () => void;
}

export function BringAlong({ from, to, onDone, onDismiss }: BringAlongProps) {
  const source = useAppStore((s) => s.composers[from].body);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const bodyLoaded = useAppStore((s) => s.composerBodyLoaded);
  const probeRequested = useAppStore((s) => s.probeRequested);
  const guardRequested = useAppStore((s) => s.guardRequested);
  const probing = useAppStore((s) =>
    Object.values(s.probeJobs).some((j) => j.profileId === profileId && j.state === 'running'),
  );
  const [open, setOpen] = useState(false);
  const [guard, setGuard] = useState<GuardReport>();
  const [guardError, setGuardError] = useState<string>();
  const result = useMemo(() => (open ? translateRequest(from, to, source) : undefined), [open, from, to, source]);
  const model = typeof source.model === 'string' ? source.model : '';

  // The guard always runs, probe job or not: a running job is no reason to skip the check. When a job on this
  // profile ends (`probing` flips back), the check runs again so freshly proven results show.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the reset is part of sending the guard request
    setGuard(undefined);
    setGuardError(undefined);
    if (!open || !result?.ok || !profileId || !model) return;
    let current = true;
    void guardRequested({ profileId, model, protocol: to, body: result.body })
      .then((r) => {
        if (!current) return;
        if (r.ok) setGuard(r.value);
        else setGuardError(r.error.message);
      })
      .catch((e: unknown) => current && setGuardError(e instanceof Error ? e.message : String(e)));
    return () => {
      current = false;
    };
  }, [open, result, profileId, model, to, probing, guardRequested]);

  /** Why no capability report exists, when none will come; undefined while one is on its way or has arrived. */
  const unchecked = !profileId
    ? 'no profile is active'
    : !model
      ? 'the request names no model'
      : guardError
        ? `the check failed: ${guardError}`
        : undefined;
  const checking = result?.ok === true && !guard && !unchecked;
  // Sending anyway is allowed, but the run's ledger keeps why: the guard's warnings, or that there was no check.
  const warnings = guard
    ? guard.warnings
    : unchecked
      ? [`Capabilities not checked on ${PROTOCOL_INFO[to].label}: ${unchecked}.`]
      : [];

  if (!open) {
    return (
      <div className="bring-along" role="note">
        <span>
          Bring the {PROTOCOL_INFO[from].label} request here, translated to {PROTOCOL_INFO[to].label}?
        </span>
        <button type="button" onClick={() => setOpen(true)}>
          Bring this request along
        </button>
        <button type="button" className="ghost" title="Not offered again for these tabs" onClick={onDismiss ?? onDone}>
          Dismiss
        </button>
      </div>
    );
  }
  return (
    <div className="bring-along open" role="region" aria-label="Translation">
      <h3>
        {PROTOCOL_INFO[from].label} → {PROTOCOL_INFO[to].label}
      </h3>
      {result && !result.ok && <p className="field-error">The request cannot be translated: {result.reason}</p>}
      {result?.ok && (
        <>
          <h4>What the translation does ({changeSummary(result.losses)})</h4>
          {result.losses.length === 0 ? (
            <p className="muted">Nothing: every field has an equivalent.</p>
          ) : (
            <LossList losses={result.losses} label="Loss list" />
          )}
          <h4>
            Capabilities this request uses, on {model || 'this model'} × {PROTOCOL_INFO[to].label}
          </h4>
          {checking && (
            <p className="muted" role="status">
              Checking capabilities on {model} × {PROTOCOL_INFO[to].label}…
            </p>
          )}
          {unchecked && <p className="field-error">Capabilities not checked: {unchecked}.</p>}
          {guard && guard.items.length === 0 && <p className="muted">None that need proof.</p>}
          {guard && guard.items.length > 0 && (
            <ul className="guard" aria-label="Capability check">
              {guard.items.map((g) => (
                <li key={g.capability} className={`guard-item ${g.state}`}>
                  <span className="badge">{g.state}</span> <strong>{g.capability}</strong>{' '}
                  <span className="muted">({g.because})</span> — {g.message}
                </li>
              ))}
            </ul>
          )}
          {guard && guard.unknown.length > 0 && profileId && (
            <p>
              <button
                type="button"
                disabled={probing}
                onClick={() =>
                  void probeRequested({ profileId, models: [model], protocols: [to], capabilities: guard.unknown })
                }
              >
                {probing ? 'Probing…' : `Probe ${guard.unknown.join(', ')} now`}
              </button>
            </p>
          )}
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={checking}
              title={checking ? 'Waiting for the capability check' : undefined}
              onClick={() => {
                bodyLoaded(to, result.body, warnings);
                onDone();
              }}
            >
              Use this request{warnings.length ? ' anyway' : ''}
            </button>
            <button type="button" className="ghost" onClick={onDone}>
              Cancel
            </button>
          </div>
        </>
      )}
    </div>
  );
}

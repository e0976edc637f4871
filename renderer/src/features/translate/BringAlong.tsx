import { useEffect, useMemo, useState } from 'react';
import type { GuardReport } from '../../../../shared/contract';
import { PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { translateRequest } from '../../../../shared/translate';
import { useAppStore } from '../../store';
import { selectActiveRequestName } from '../../store/requests-slice';
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

/** Where the guard checks: `probing` is there so that a probe job ending on the profile starts a fresh check. */
interface GuardTarget {
  profileId: string | undefined;
  model: string;
  protocol: ProtocolId;
  probing: boolean;
}

/** The guard's report, or why the check failed; neither while it is on its way (or none will come). */
interface GuardAnswer {
  report?: GuardReport;
  error?: string;
}

/**
 * The capability check of `body` on the target: it always runs, probe job or not (a running job is no reason to
 * skip it), and again when a job on the profile ends so freshly proven results show. Its answer is kept with the
 * check it answers, so a new check (another body, model or protocol, a job ending) shows nothing until its own.
 */
function useGuard(body: Record<string, unknown> | undefined, target: GuardTarget): GuardAnswer {
  const guardRequested = useAppStore((s) => s.guardRequested);
  const { profileId, model, protocol, probing } = target;
  const check = useMemo(
    () => (body && profileId && model ? { input: { profileId, model, protocol, body }, probing } : undefined),
    [body, profileId, model, protocol, probing],
  );
  const [answer, setAnswer] = useState<GuardAnswer & { check: typeof check }>();
  useEffect(() => {
    if (!check) return;
    let current = true;
    const answered = (a: GuardAnswer) => current && setAnswer({ check, ...a });
    void guardRequested(check.input)
      .then((r) => answered(r.ok ? { report: r.value } : { error: r.error.message }))
      .catch((e: unknown) => answered({ error: e instanceof Error ? e.message : String(e) }));
    return () => {
      current = false;
    };
  }, [check, guardRequested]);
  return check && answer?.check === check ? answer : {};
}

export function BringAlong({ from, to, onDone, onDismiss }: BringAlongProps) {
  const source = useAppStore((s) => s.composers[from].body);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const requestOpened = useAppStore((s) => s.requestOpened);
  const sourceName = useAppStore(selectActiveRequestName(from));
  const probeRequested = useAppStore((s) => s.probeRequested);
  const probing = useAppStore((s) =>
    Object.values(s.probeJobs).some((j) => j.profileId === profileId && j.state === 'running'),
  );
  const [open, setOpen] = useState(false);
  const result = useMemo(() => (open ? translateRequest(from, to, source) : undefined), [open, from, to, source]);
  const model = typeof source.model === 'string' ? source.model : '';
  const { report, error: guardError } = useGuard(open && result?.ok ? result.body : undefined, {
    profileId,
    model,
    protocol: to,
    probing,
  });

  /** Why no capability report exists, when none will come; undefined while one is on its way or has arrived. */
  const unchecked = !profileId
    ? 'no profile is active'
    : !model
      ? 'the request names no model'
      : guardError
        ? `the check failed: ${guardError}`
        : undefined;
  const checking = result?.ok === true && !report && !unchecked;
  // Sending anyway is allowed, but the run's ledger keeps why: the guard's warnings, or that there was no check.
  const warnings = report
    ? report.warnings
    : unchecked
      ? [`Capabilities not checked on ${PROTOCOL_INFO[to].label}: ${unchecked}.`]
      : [];

  if (!open) {
    return (
      <div className="bring-along offer" role="note">
        <span title={`Translated to ${PROTOCOL_INFO[to].label}, with what the translation loses shown first`}>
          Bring the {PROTOCOL_INFO[from].label} request here?
        </span>
        <button type="button" className="small" onClick={() => setOpen(true)}>
          Bring this request along
        </button>
        <button
          type="button"
          className="ghost small"
          title="Not offered again for these tabs"
          onClick={onDismiss ?? onDone}
        >
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
          {report && report.items.length === 0 && <p className="muted">None that need proof.</p>}
          {report && report.items.length > 0 && (
            <ul className="guard" aria-label="Capability check">
              {report.items.map((g) => (
                <li key={g.capability} className={`guard-item ${g.state}`}>
                  <span className="badge">{g.state}</span> <strong>{g.capability}</strong>{' '}
                  <span className="muted">({g.because})</span> — {g.message}
                </li>
              ))}
            </ul>
          )}
          {report && report.unknown.length > 0 && profileId && (
            <p>
              <button
                type="button"
                disabled={probing}
                onClick={() =>
                  void probeRequested({ profileId, models: [model], protocols: [to], capabilities: report.unknown })
                }
              >
                {probing ? 'Probing…' : `Probe ${report.unknown.join(', ')} now`}
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
                // A new request tab here: the requests already open in this protocol stay as they are.
                requestOpened(to, {
                  body: result.body,
                  warnings,
                  name: `${sourceName} (${PROTOCOL_INFO[from].label})`,
                });
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

import type { AgentSweep } from '../../store/agents-slice';
import { useAppStore } from '../../store';
import { download } from '../../lib/download';

/** A model of the profile's list, as a plain select: the Agents tab checks only models the gateway listed. */
export function ModelSelect(props: { label: string; ids: string[]; value: string; onChange(id: string): void }) {
  return (
    <label>
      {props.label}{' '}
      <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.ids.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  );
}

export function SweepProgress({ sweep, onStop }: { sweep: AgentSweep; onStop(): void }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label="Check all progress"
      aria-valuemin={0}
      aria-valuemax={sweep.total}
      aria-valuenow={sweep.done}
    >
      <div className="bar" style={{ width: `${(sweep.done / Math.max(1, sweep.total)) * 100}%` }} />
      <span className="small">
        {sweep.done} / {sweep.total}
      </span>
      <button type="button" className="small" disabled={sweep.stopping} onClick={onStop}>
        Stop
      </button>
    </div>
  );
}

/** The profile's capability and agent matrices, with their evidence, as a file to send to the gateway's operator. */
export function ReportButtons({
  profileId,
  onError,
}: {
  profileId: string;
  onError(message: string | undefined): void;
}) {
  const agentReportRequested = useAppStore((s) => s.agentReportRequested);
  const report = async (format: 'markdown' | 'html') => {
    const r = await agentReportRequested(profileId);
    if (!r.ok) return onError(r.error.message);
    onError(undefined);
    if (format === 'markdown') download(`${r.value.fileBase}.md`, r.value.markdown, 'text/markdown');
    else download(`${r.value.fileBase}.html`, r.value.html, 'text/html');
  };
  return (
    <>
      <button type="button" className="ghost" onClick={() => void report('markdown')}>
        Export report (Markdown)
      </button>
      <button type="button" className="ghost" onClick={() => void report('html')}>
        Export report (HTML)
      </button>
    </>
  );
}

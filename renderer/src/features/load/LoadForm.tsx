/**
 * What to send and how hard: the request's source, profile, model, the shape (N × C with its Concurrency, rate
 * and cap, or a ramp, stages, a soak), Requests; Start and Stop.
 */
import { useMemo } from 'react';
import { LOAD_LIMITS, type LoadStartInput } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { bodyToSend } from '../composer/body-to-send';
import { useAppStore } from '../../store';
import type { LoadSettings } from '../../store/load-slice';
import { mostInFlight, shapeInput, type ShapeErrors } from './shape-input';
import { ShapeFields } from './ShapeFields';

type Body = Record<string, unknown>;

/** The form's values as a load:start input, or the first problem with each field. */
export function loadInput(
  settings: LoadSettings,
  request: { protocol: ProtocolId; body: Body; source: string } | undefined,
  activeProfileId: string | undefined,
): { input?: LoadStartInput; errors: ShapeErrors } {
  const fixed = settings.shape === 'fixed';
  const { shape, errors } = shapeInput(settings);
  const int = (key: 'requests' | 'concurrency', max: number) => {
    const n = Number(settings[key]);
    if (!Number.isInteger(n) || n < 1 || n > max) errors[key] = `a whole number from 1 to ${max.toLocaleString('en')}`;
    return n;
  };
  const optional = (key: 'ratePerSec' | 'durationCapS', max: number) => {
    if (settings[key].trim() === '') return undefined;
    const n = Number(settings[key]);
    if (!Number.isFinite(n) || n <= 0 || n > max) errors[key] = `empty, or a number above 0 and at most ${max}`;
    return n;
  };
  const requests = int('requests', LOAD_LIMITS.requests);
  // A timed shape paces itself and ends with its time: Concurrency, rate and cap are N × C's.
  const concurrency = fixed ? int('concurrency', LOAD_LIMITS.concurrency) : 0;
  const ratePerSec = fixed ? optional('ratePerSec', LOAD_LIMITS.ratePerSec) : undefined;
  const durationCapS = fixed ? optional('durationCapS', LOAD_LIMITS.durationS) : undefined;
  if (!request) errors.source = 'choose a request';
  const profileId = settings.profileId || activeProfileId;
  if (!profileId) errors.profileId = 'no profile yet';
  if (Object.keys(errors).length || !request || !profileId || !shape) return { errors };
  const model = settings.model.trim();
  const body = model ? { ...request.body, model } : request.body;
  return {
    input: {
      profileId,
      protocol: request.protocol,
      body,
      requests,
      concurrency: mostInFlight(shape, concurrency),
      ratePerSec,
      durationCapS,
      shape,
      source: request.source,
    },
    errors,
  };
}

/** The request the form names: a composer's current request (as Send would send it) or a preset's. */
export function useRequest(source: string) {
  const composer = useAppStore((s) =>
    (PROTOCOL_IDS as readonly string[]).includes(source) ? s.composers[source as ProtocolId] : undefined,
  );
  const presets = useAppStore((s) => s.presets);
  return useMemo(() => {
    if (composer) {
      const protocol = source as ProtocolId;
      return {
        protocol,
        body: bodyToSend(protocol, composer.body, composer.draft),
        source: `${PROTOCOL_INFO[protocol].label} composer`,
      };
    }
    const preset = presets.find((p) => `preset:${p.id}` === source && !p.compare);
    return preset && { protocol: preset.protocol, body: preset.body, source: `preset ${preset.name}` };
  }, [composer, presets, source]);
}

/** Where the request comes from and which profile sends it. */
function SourceFields({ error, disabled }: { error?: string; disabled: boolean }) {
  const settings = useAppStore((s) => s.loadSettings);
  const edited = useAppStore((s) => s.loadSettingsEdited);
  const presets = useAppStore((s) => s.presets);
  const profiles = useAppStore((s) => s.profiles);
  const activeName = profiles?.profiles.find((p) => p.id === profiles.activeId)?.name;
  return (
    <>
      <label className="load-field wide">
        <span className="label">Request</span>
        <select
          aria-label="Request"
          value={settings.source}
          onChange={(e) => edited({ source: e.target.value })}
          disabled={disabled}
        >
          {PROTOCOL_IDS.map((p) => (
            <option key={p} value={p}>
              {PROTOCOL_INFO[p].label} composer
            </option>
          ))}
          {presets
            .filter((p) => !p.compare)
            .map((p) => (
              <option key={p.id} value={`preset:${p.id}`}>
                Preset: {p.name}
              </option>
            ))}
        </select>
        {error && <span className="field-error">{error}</span>}
      </label>
      <label className="load-field wide">
        <span className="label">Profile</span>
        <select
          aria-label="Load profile"
          value={settings.profileId}
          onChange={(e) => edited({ profileId: e.target.value })}
          disabled={disabled}
        >
          <option value="">Active profile ({activeName ?? '—'})</option>
          {profiles?.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

type Key = 'model' | 'requests' | 'concurrency' | 'ratePerSec' | 'durationCapS';
type FieldExtra = { placeholder?: string; inputMode?: 'numeric' | 'decimal' };

function Field({
  name,
  label,
  error,
  disabled,
  extra,
}: {
  name: Key;
  label: string;
  error?: string;
  disabled: boolean;
  extra: FieldExtra;
}) {
  const value = useAppStore((s) => s.loadSettings[name]);
  const edited = useAppStore((s) => s.loadSettingsEdited);
  return (
    <label className="load-field">
      <span className="label">{label}</span>
      <input
        aria-label={label}
        value={value}
        onChange={(e) => edited({ [name]: e.target.value })}
        disabled={disabled}
        {...extra}
      />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

export function LoadForm() {
  const settings = useAppStore((s) => s.loadSettings);
  const activeId = useAppStore((s) => s.profiles?.activeId);
  const live = useAppStore((s) => s.loadLive);
  const start = useAppStore((s) => s.loadStartRequested);
  const stop = useAppStore((s) => s.loadStopRequested);
  const request = useRequest(settings.source);
  const { input, errors } = loadInput(settings, request, activeId);
  const running = live?.state === 'running' || live?.state === 'stopping';
  const fixed = settings.shape === 'fixed';
  const field = (key: Key, label: string, extra: FieldExtra = {}) => (
    <Field name={key} label={label} error={errors[key]} disabled={running} extra={extra} />
  );
  return (
    <section className="card" aria-label="Load settings">
      <div className="load-grid">
        <SourceFields error={errors.source} disabled={running} />
        {field('model', 'Model', {
          placeholder: typeof request?.body.model === 'string' ? request.body.model : 'as in the request',
        })}
        <ShapeFields errors={errors} disabled={running} />
        {field('requests', 'Requests', { inputMode: 'numeric' })}
        {fixed && (
          <>
            {field('concurrency', 'Concurrency', { inputMode: 'numeric' })}
            {field('ratePerSec', 'Target rate (req/s)', { inputMode: 'decimal', placeholder: 'as fast as allowed' })}
            {field('durationCapS', 'Duration cap (s)', { inputMode: 'decimal', placeholder: 'none' })}
          </>
        )}
      </div>
      {!fixed && (
        <p className="small muted">
          A timed shape ends with its time; Requests is the most it sends. Open-loop arrivals that find{' '}
          {LOAD_LIMITS.concurrency} requests in flight are skipped and counted.
        </p>
      )}
      {request && request.body.stream !== true && (
        <p className="note">
          This request is not streamed: time to first token, ITL and TPOT need a stream; only end-to-end latency is
          measured.
        </p>
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!input || running}
          onClick={() => input && void start(input)}
        >
          Start
        </button>
        <button type="button" disabled={live?.state !== 'running'} onClick={() => void stop()}>
          Stop
        </button>
      </div>
    </section>
  );
}

/**
 * The Shape of a load run in the Load form: a combobox (N × C, Ramp, Stages, Soak) and the fields each needs;
 * stages as a list to which a stage is added or from which one is removed (docs/load.md "Shapes").
 */
import { SHAPE_LIMITS } from '../../../../shared/load/shape';
import { useAppStore } from '../../store';
import type { LoadSettings, StageDraft } from '../../store/load-slice';
import { SHAPE_OPTIONS, type ShapeErrors } from './shape-input';

type Edited = (patch: Partial<LoadSettings>) => void;

function Input(props: {
  label: string;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (v: string) => void;
  inputMode?: 'numeric' | 'decimal';
}) {
  return (
    <label className="load-field">
      <span className="label">{props.label}</span>
      <input
        aria-label={props.label}
        value={props.value}
        inputMode={props.inputMode}
        onChange={(e) => props.onChange(e.target.value)}
        disabled={props.disabled}
      />
      {props.error && <span className="field-error">{props.error}</span>}
    </label>
  );
}

function Arrival({ disabled }: { disabled: boolean }) {
  const arrival = useAppStore((s) => s.loadSettings.arrival);
  const edited = useAppStore((s) => s.loadSettingsEdited);
  return (
    <label className="load-field">
      <span className="label">Arrivals</span>
      <select
        aria-label="Arrivals"
        value={arrival}
        onChange={(e) => edited({ arrival: e.target.value as LoadSettings['arrival'] })}
        disabled={disabled}
      >
        <option value="steady">Evenly spaced</option>
        <option value="poisson">Poisson</option>
      </select>
    </label>
  );
}

function StageRow(props: { k: number; stage: StageDraft; count: number; errors: ShapeErrors; disabled: boolean }) {
  const { k, stage, errors, disabled } = props;
  const stages = useAppStore((s) => s.loadSettings.stages);
  const edited = useAppStore((s) => s.loadSettingsEdited);
  const n = k + 1;
  const change = (patch: Partial<StageDraft>) =>
    edited({ stages: stages.map((s, j) => (j === k ? { ...s, ...patch } : s)) });
  const valueLabel = stage.mode === 'concurrency' ? `Stage ${n} concurrency` : `Stage ${n} rate (req/s)`;
  return (
    <li className="load-stage">
      <label className="load-field">
        <span className="label">Stage {n}</span>
        <select
          aria-label={`Stage ${n} kind`}
          value={stage.mode}
          onChange={(e) => change({ mode: e.target.value as StageDraft['mode'] })}
          disabled={disabled}
        >
          <option value="concurrency">At once (closed loop)</option>
          <option value="rate">Rate (open loop)</option>
        </select>
      </label>
      <Input
        label={valueLabel}
        value={stage.value}
        error={errors[`stage-${n}-value`]}
        disabled={disabled}
        inputMode="decimal"
        onChange={(value) => change({ value })}
      />
      <Input
        label={`Stage ${n} duration (s)`}
        value={stage.durationS}
        error={errors[`stage-${n}-duration`]}
        disabled={disabled}
        inputMode="decimal"
        onChange={(durationS) => change({ durationS })}
      />
      <button
        type="button"
        className="ghost small"
        aria-label={`Remove stage ${n}`}
        disabled={disabled || props.count === 1}
        onClick={() => edited({ stages: stages.filter((_, j) => j !== k) })}
      >
        ✕
      </button>
    </li>
  );
}

function Stages({ errors, disabled }: { errors: ShapeErrors; disabled: boolean }) {
  const stages = useAppStore((s) => s.loadSettings.stages);
  const edited = useAppStore((s) => s.loadSettingsEdited);
  const add = () => {
    const last = stages.at(-1) ?? { mode: 'concurrency', value: '4', durationS: '10' };
    edited({ stages: [...stages, { ...last }] });
  };
  return (
    <div className="load-stages">
      <ol aria-label="Stages">
        {stages.map((stage, k) => (
          <StageRow key={k} k={k} stage={stage} count={stages.length} errors={errors} disabled={disabled} />
        ))}
      </ol>
      {errors.stages && <span className="field-error">{errors.stages}</span>}
      <div className="row">
        <button type="button" onClick={add} disabled={disabled || stages.length >= SHAPE_LIMITS.stages}>
          Add stage
        </button>
        {stages.some((s) => s.mode === 'rate') && <Arrival disabled={disabled} />}
      </div>
    </div>
  );
}

/** The combobox, then the fields of the chosen shape (N × C keeps the form's own Concurrency and rate). */
export function ShapeFields({ errors, disabled }: { errors: ShapeErrors; disabled: boolean }) {
  const settings = useAppStore((s) => s.loadSettings);
  const edited: Edited = useAppStore((s) => s.loadSettingsEdited);
  const input = (
    key: 'rampFrom' | 'rampTo' | 'rampDurationS' | 'soakRate' | 'soakDurationS',
    label: string,
    inputMode: 'numeric' | 'decimal',
  ) => (
    <Input
      label={label}
      value={settings[key]}
      error={errors[key]}
      disabled={disabled}
      inputMode={inputMode}
      onChange={(v) => edited({ [key]: v })}
    />
  );
  return (
    <>
      <label className="load-field">
        <span className="label">Shape</span>
        <select
          aria-label="Shape"
          value={settings.shape}
          onChange={(e) => edited({ shape: e.target.value as LoadSettings['shape'] })}
          disabled={disabled}
        >
          {SHAPE_OPTIONS.map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {settings.shape === 'ramp' && (
        <>
          {input('rampFrom', 'From (at once)', 'numeric')}
          {input('rampTo', 'To (at once)', 'numeric')}
          {input('rampDurationS', 'Over (s)', 'decimal')}
        </>
      )}
      {settings.shape === 'soak' && (
        <>
          {input('soakRate', 'Rate (req/s)', 'decimal')}
          {input('soakDurationS', 'Duration (s)', 'decimal')}
          <Arrival disabled={disabled} />
        </>
      )}
      {settings.shape === 'stages' && <Stages errors={errors} disabled={disabled} />}
    </>
  );
}

import { useEffect, useRef, useState } from 'react';
import type { PriceRates, PriceSettings } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import './pricing.css';

const EMPTY_FORM = { model: '', input: '', output: '', cacheRead: '', cacheWrite: '' };
type Form = typeof EMPTY_FORM;

/** A price as typed: a number ≥ 0, or (for an optional field) nothing. */
function price(text: string, optional: boolean): number | undefined | 'bad' {
  const t = text.trim();
  if (t === '') return optional ? undefined : 'bad';
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : 'bad';
}

function ratesOf(f: Form): PriceRates | string {
  const [i, o, r, w] = [
    price(f.input, false),
    price(f.output, false),
    price(f.cacheRead, true),
    price(f.cacheWrite, true),
  ];
  if (!f.model.trim()) return 'Name the model the price is for, exactly as it is sent.';
  if (i === 'bad' || o === 'bad' || r === 'bad' || w === 'bad' || i === undefined || o === undefined)
    return 'Input and output prices are needed, as dollars per million tokens (0 or more); cache prices are optional.';
  return {
    inputMtok: i,
    outputMtok: o,
    ...(r !== undefined && { cacheReadMtok: r }),
    ...(w !== undefined && { cacheWriteMtok: w }),
  };
}

const rateWords = (r: PriceRates) =>
  [
    `input $${r.inputMtok}`,
    `output $${r.outputMtok}`,
    r.cacheReadMtok !== undefined ? `cache read $${r.cacheReadMtok}` : 'cache read at input price',
    r.cacheWriteMtok !== undefined ? `cache write $${r.cacheWriteMtok}` : 'cache write at input price',
  ].join(' · ') + ' per million tokens';

function PriceForm({
  initialModel,
  onAdd,
}: {
  initialModel: string;
  onAdd: (model: string, rates: PriceRates) => void;
}) {
  const [form, setForm] = useState<Form>({ ...EMPTY_FORM, model: initialModel });
  const [error, setError] = useState<string>();
  const field = (key: keyof Form, label: string, placeholder = '') => (
    <label className="price-field">
      <span>{label}</span>
      <input
        value={form[key]}
        placeholder={placeholder}
        inputMode={key === 'model' ? 'text' : 'decimal'}
        spellCheck={false}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <fieldset className="price-form">
      <legend>Your price for a model</legend>
      {field('model', 'Model')}
      {field('input', 'Input $ per 1M tokens')}
      {field('output', 'Output $ per 1M tokens')}
      {field('cacheRead', 'Cache read $ per 1M tokens', 'as input')}
      {field('cacheWrite', 'Cache write $ per 1M tokens', 'as input')}
      <button
        type="button"
        onClick={() => {
          const rates = ratesOf(form);
          if (typeof rates === 'string') return setError(rates);
          setError(undefined);
          onAdd(form.model.trim(), rates);
          setForm(EMPTY_FORM);
        }}
      >
        Set price
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/**
 * "Prices": the active profile's multiplier for list prices and its own per-model prices, for relays that
 * charge otherwise. Edits a draft; Save keeps it (in the core), and every cost shown is quoted again.
 */
export function PricesDialog() {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const profileName = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.activeId)?.name);
  const saved = useAppStore((s) => (profileId ? s.prices[profileId] : undefined));
  const model = useAppStore((s) => s.pricesDialogModel);
  const toggled = useAppStore((s) => s.pricesDialogToggled);
  const requested = useAppStore((s) => s.pricesRequested);
  const save = useAppStore((s) => s.pricesSaved);
  const [draft, setDraft] = useState<PriceSettings>();
  const [multiplier, setMultiplier] = useState<string>();
  const [error, setError] = useState<string>();
  const ref = useRef<HTMLDialogElement>(null);
  const close = () => toggled(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
  }, []);
  useEffect(() => {
    if (profileId) void requested(profileId);
  }, [profileId, requested]);
  const shown = draft ?? saved;
  const multiplierText = multiplier ?? String(shown?.multiplier ?? 1);
  const overrides = Object.entries(shown?.overrides ?? {});

  const onSave = async () => {
    if (!profileId || !shown) return;
    const m = Number(multiplierText.trim());
    if (!Number.isFinite(m) || m <= 0) return setError('The multiplier is a number above 0 (1 = list price).');
    const failed = await save(profileId, { ...shown, multiplier: m });
    if (failed) return setError(failed.message);
    close();
  };

  return (
    <dialog ref={ref} className="prices" aria-label="Prices" onClose={close} onCancel={close}>
      <div className="dialog-head">
        <h2>Prices{profileName ? ` — ${profileName}` : ''}</h2>
        <button type="button" className="ghost" onClick={close}>
          Close
        </button>
      </div>
      <div className="prices-body">
        <p className="muted small">
          Costs are worked out from the usage the gateway reports. Models the price library knows
          (@pydantic/genai-prices) show their list price; a relay that charges otherwise gets a multiplier, or your own
          price per model. A model with neither shows “no price”.
        </p>
        <label className="price-field">
          <span>List price multiplier</span>
          <input value={multiplierText} inputMode="decimal" onChange={(e) => setMultiplier(e.target.value)} />
        </label>
        <ul className="price-list" aria-label="Your prices">
          {overrides.length === 0 && <li className="muted">No prices of your own yet.</li>}
          {overrides.map(([id, rates]) => (
            <li key={id}>
              <span className="mono">{id}</span> <span className="small">{rateWords(rates)}</span>{' '}
              <button
                type="button"
                className="ghost small"
                aria-label={`Remove the price for ${id}`}
                onClick={() => {
                  const rest = { ...shown?.overrides };
                  delete rest[id];
                  setDraft({ multiplier: shown?.multiplier ?? 1, overrides: rest });
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <PriceForm
          initialModel={model ?? ''}
          onAdd={(id, rates) =>
            setDraft({ multiplier: shown?.multiplier ?? 1, overrides: { ...shown?.overrides, [id]: rates } })
          }
        />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="row">
          <button type="button" className="primary" disabled={!shown} onClick={() => void onSave()}>
            Save
          </button>
          <button type="button" className="ghost" onClick={close}>
            Cancel
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** The header's way in, and the dialog while it is open (a cost figure opens it too). */
export function PricesButton() {
  const open = useAppStore((s) => s.pricesDialogOpen);
  const toggled = useAppStore((s) => s.pricesDialogToggled);
  return (
    <>
      <button type="button" className="ghost small" onClick={() => toggled(true)}>
        Prices…
      </button>
      {open && <PricesDialog />}
    </>
  );
}

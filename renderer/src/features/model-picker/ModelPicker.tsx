import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAppStore } from '../../store';
import { useNow } from '../../lib/use-now';
import { filterModels, indexModels, relativeTime } from './filter';
import { plural } from '../../../../shared/plural';
import { ModelLimitsLine } from './ModelLimitsLine';

const EMPTY: never[] = [];
const NO_EVIDENCE = 'The models list gives no evidence of this model’s family (the list’s shape alone is not evidence)';

export function ModelPicker({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const list = useAppStore((s) => (profileId ? s.models[profileId] : undefined));
  const loading = useAppStore((s) => (profileId ? !!s.modelsLoading[profileId] : false));
  const modelsRequested = useAppStore((s) => s.modelsRequested);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  /** The option highlighted with the arrow keys; -1 while none is (typing clears it). */
  const [active, setActive] = useState(-1);
  /** For "fetched N min ago": the list's age moves on while the picker is shown. */
  const now = useNow(30_000);
  const index = useMemo(() => indexModels(list?.models ?? EMPTY), [list?.models]);
  const shown = useMemo(() => filterModels(index, query ?? ''), [index, query]);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; nothing memoizes its API
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 30,
    overscan: 8,
  });

  const choose = (id: string) => {
    if (id !== value) onChange(id);
    setQuery(null);
    setActive(-1);
    setOpen(false);
  };

  /**
   * Enter, and leaving the box, commit what the user means: the option they highlighted with the arrow keys;
   * on Enter, the only listed model that matches (a fragment is not an id: sent, it is a 404); else the id
   * exactly as typed — listed or not, since gateways serve models they do not list, and the picker then says
   * it is not listed. Never the first of several rows: typing `gpt-4o` must not send `gpt-4o-mini`. An emptied
   * box keeps the current model.
   */
  const commit = (enter: boolean) => {
    const highlighted = active >= 0 ? shown[active]?.id : undefined;
    const typed = query?.trim();
    const only = enter && typed && shown.length === 1 ? shown[0].id : undefined;
    const exact = typed ? shown.find((m) => m.id === typed)?.id : undefined;
    choose(highlighted ?? exact ?? only ?? (typed || value));
  };
  const unlisted = query === null && !!value && !!list?.models.length && !index.some((m) => m.model.id === value);

  return (
    <div className="model-picker">
      <div className="combo">
        <input
          role="combobox"
          aria-label="Model"
          aria-expanded={open}
          aria-controls="model-listbox"
          aria-autocomplete="list"
          aria-activedescendant={open && active >= 0 && active < shown.length ? `model-option-${active}` : undefined}
          spellCheck={false}
          placeholder={loading ? 'Loading models…' : 'Pick or type a model id'}
          value={query ?? value}
          onFocus={() => {
            setOpen(true);
            // An empty box the user has entered is theirs: a model picked meanwhile (the Demo gateway's default,
            // once its list arrives) must not appear under their cursor, to be typed onto. Leaving it empty
            // still keeps that model (commit).
            if (query === null && value === '') setQuery('');
          }}
          onClick={() => setOpen(true)}
          onBlur={() => commit(false)}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(-1);
            setOpen(true);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive((a) => Math.min(shown.length - 1, a + 1));
              if (shown.length > 0) virtual.scrollToIndex(Math.min(shown.length - 1, active + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              // Up from the first option goes back to what was typed.
              setActive((a) => Math.max(-1, a - 1));
              if (active > 0) virtual.scrollToIndex(active - 1);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              commit(true);
            } else if (e.key === 'Escape') {
              // As Tab does: what was typed stays (and is what Send uses); only the list closes. An open list
              // takes this Escape for itself, so a window-wide Escape (stop the run) does not act on it too.
              if (open) e.stopPropagation();
              choose(query?.trim() || value);
            }
          }}
        />
        {open && (
          <div className="listbox-wrap" ref={scroller}>
            <div
              id="model-listbox"
              role="listbox"
              aria-label="Models"
              style={{ height: virtual.getTotalSize(), position: 'relative' }}
            >
              {virtual.getVirtualItems().map((row) => {
                const m = shown[row.index];
                return (
                  <div
                    key={m.id}
                    id={`model-option-${row.index}`}
                    role="option"
                    aria-selected={row.index === active}
                    className={`option ${row.index === active ? 'active' : ''}`}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      height: row.size,
                      transform: `translateY(${row.start}px)`,
                    }}
                    onMouseDown={(e) => {
                      e.preventDefault();
                      choose(m.id);
                    }}
                  >
                    <span className="mono">{m.id}</span>
                    <span
                      className={`family ${m.family}`}
                      title={
                        m.family === 'unknown'
                          ? NO_EVIDENCE
                          : `From the models list (${m.ownedBy ? `owned_by ${m.ownedBy}` : 'first-party fields'})`
                      }
                    >
                      {m.family === 'anthropic'
                        ? 'Messages family'
                        : m.family === 'openai'
                          ? 'OpenAI family'
                          : 'family unknown'}
                    </span>
                  </div>
                );
              })}
            </div>
            {shown.length === 0 && (
              <div className="option muted">No listed model matches; Enter uses “{query}” as typed.</div>
            )}
          </div>
        )}
      </div>
      <button
        type="button"
        className="ghost"
        aria-label="Refresh models"
        title="Fetch /v1/models again"
        disabled={!profileId || loading}
        onClick={() => profileId && void modelsRequested(profileId, true)}
      >
        ⟳
      </button>
      <span className="muted small" aria-label="Models fetched">
        {list ? `${plural(list.models.length, 'model')} · ${relativeTime(list.fetchedAt, now)}` : ''}
      </span>
      {value && <ModelLimitsLine profileId={profileId} model={value} />}
      {list && (list.added.length > 0 || list.removed.length > 0) && (
        <span
          className="model-diff"
          aria-label="Model changes"
          title={[...list.added.map((a) => `+ ${a}`), ...list.removed.map((r) => `− ${r}`)].join('\n')}
        >
          {list.added.length > 0 && (
            <span className="ok">
              +{list.added.length} new: {list.added.join(', ')}
            </span>
          )}
          {list.removed.length > 0 && (
            <span className="err">
              {' '}
              −{list.removed.length} gone: {list.removed.join(', ')}
            </span>
          )}
        </span>
      )}
      {unlisted && (
        <span className="model-unlisted warn" role="status" aria-label="Model not listed">
          “{value}” is not in this gateway’s models list: Send asks for it as typed.
        </span>
      )}
      {list?.error && (
        <span className="model-error" role="alert" aria-label="Models error">
          {list.error.status ? `HTTP ${list.error.status}` : list.error.type}: {list.error.message}
          {list.error.requestId ? ` (request id ${list.error.requestId})` : ''}
        </span>
      )}
    </div>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAppStore } from '../../store';
import { filterModels, indexModels, relativeTime } from './filter';

const EMPTY: never[] = [];

export function ModelPicker({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const list = useAppStore((s) => (profileId ? s.models[profileId] : undefined));
  const loading = useAppStore((s) => (profileId ? !!s.modelsLoading[profileId] : false));
  const modelsRequested = useAppStore((s) => s.modelsRequested);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [, tick] = useState(0);
  const index = useMemo(() => indexModels(list?.models ?? EMPTY), [list?.models]);
  const shown = useMemo(() => filterModels(index, query ?? ''), [index, query]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: shown.length, getScrollElement: () => scroller.current, estimateSize: () => 30, overscan: 8 });

  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => setActive(0), [query]);

  const choose = (id: string) => {
    onChange(id);
    setQuery(null);
    setOpen(false);
  };

  return (
    <div className="model-picker">
      <div className="combo">
        <input
          role="combobox"
          aria-label="Model"
          aria-expanded={open}
          aria-controls="model-listbox"
          aria-autocomplete="list"
          spellCheck={false}
          placeholder={loading ? 'Loading models…' : 'Pick or type a model id'}
          value={query ?? value}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive((a) => Math.min(shown.length - 1, a + 1));
              virtual.scrollToIndex(Math.min(shown.length - 1, active + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(0, a - 1));
              virtual.scrollToIndex(Math.max(0, active - 1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              // Gateways serve models they do not list: a typed id is accepted as is.
              choose(shown[active]?.id ?? query ?? value);
            } else if (e.key === 'Escape') {
              setQuery(null);
              setOpen(false);
            }
          }}
        />
        {open && (
          <div className="listbox-wrap" ref={scroller}>
            <div id="model-listbox" role="listbox" aria-label="Models" style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((row) => {
                const m = shown[row.index];
                return (
                  <div
                    key={m.id}
                    role="option"
                    aria-selected={row.index === active}
                    className={`option ${row.index === active ? 'active' : ''}`}
                    style={{ position: 'absolute', top: 0, left: 0, right: 0, height: row.size, transform: `translateY(${row.start}px)` }}
                    onMouseDown={(e) => {
                      e.preventDefault();
                      choose(m.id);
                    }}
                  >
                    <span className="mono">{m.id}</span>
                    <span className={`family ${m.family}`}>{m.family === 'anthropic' ? 'Messages family' : m.family === 'openai' ? 'OpenAI family' : '?'}</span>
                  </div>
                );
              })}
            </div>
            {shown.length === 0 && <div className="option muted">No listed model matches; Enter uses “{query}” as typed.</div>}
          </div>
        )}
      </div>
      <button type="button" className="ghost" aria-label="Refresh models" title="Fetch /v1/models again" disabled={!profileId || loading} onClick={() => profileId && void modelsRequested(profileId, true)}>
        ⟳
      </button>
      <span className="muted small" aria-label="Models fetched">
        {list ? `${list.models.length} models · ${relativeTime(list.fetchedAt)}` : ''}
      </span>
      {list && (list.added.length > 0 || list.removed.length > 0) && (
        <span className="model-diff" aria-label="Model changes" title={[...list.added.map((a) => `+ ${a}`), ...list.removed.map((r) => `− ${r}`)].join('\n')}>
          {list.added.length > 0 && <span className="ok">+{list.added.length} new: {list.added.join(', ')}</span>}
          {list.removed.length > 0 && <span className="err"> −{list.removed.length} gone: {list.removed.join(', ')}</span>}
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

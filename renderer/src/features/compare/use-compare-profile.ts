import { useEffect } from 'react';
import { useAppStore } from '../../store';

/** Columns nobody chose follow the active profile: laid out again whenever its models (or probes) are known. */
export function useCompareProfile(): void {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const list = useAppStore((s) => (profileId ? s.models[profileId] : undefined));
  const results = useAppStore((s) => (profileId ? s.capabilities[profileId]?.results : undefined));
  const seen = useAppStore((s) => s.compareProfileModelsSeen);
  useEffect(() => {
    if (!profileId) return;
    const error = list?.error && !list.models.length ? list.error.message : undefined;
    seen({ profileId, models: list?.models, results, error });
  }, [profileId, list, results, seen]);
}

/** Ctrl/Cmd+Shift+Enter runs every column while the Compare tab is shown, wherever the focus is. */
export function useRunAllShortcut(): void {
  const runAll = useAppStore((s) => s.compareRunAllRequested);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !e.shiftKey || !(e.ctrlKey || e.metaKey) || e.repeat) return;
      e.preventDefault();
      void runAll();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runAll]);
}

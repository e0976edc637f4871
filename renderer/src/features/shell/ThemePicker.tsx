import { THEMES, type Theme } from '../../../../shared/contract';
import { useAppStore } from '../../store';

const LABEL: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };

export function ThemePicker() {
  const theme = useAppStore((s) => s.settings.theme);
  const themeChosen = useAppStore((s) => s.themeChosen);
  const error = useAppStore((s) => s.settingsError);
  return (
    <label className="field-inline">
      <span className="label">Theme</span>
      <select
        aria-label="Theme"
        value={theme}
        onChange={(e) => void themeChosen(e.target.value as Theme)}
        title={error ? `Not saved: ${error.message}` : undefined}
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABEL[t]}
          </option>
        ))}
      </select>
    </label>
  );
}

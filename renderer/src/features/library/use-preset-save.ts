import { useState } from 'react';
import type { z } from 'zod';
import type { Preset, PresetSaveInput } from '../../../../shared/contract';
import { useAppStore } from '../../store';

type SaveInput = Omit<z.input<typeof PresetSaveInput>, 'replace' | 'id'>;

/**
 * Saving a preset under a name that is taken is a question, not a failure: the answer is a field error
 * naming the other preset, and Replace saves over it (same preset, new request) when the user says so.
 */
export function usePresetSave(onSaved: (preset: Preset) => void) {
  const presetSaveRequested = useAppStore((s) => s.presetSaveRequested);
  const [message, setMessage] = useState<string>();
  const [clash, setClash] = useState(false);
  const send = async (input: SaveInput, replace: boolean) => {
    const r = await presetSaveRequested(replace ? { ...input, replace } : input);
    if (!r.ok) {
      setMessage(r.error.fields?.name ?? r.error.message);
      // Only a taken name can be replaced: an empty or over-long one is just an error.
      setClash(r.error.code === 'name_taken');
      return;
    }
    setClash(false);
    setMessage(`Saved “${r.value.name}”.`);
    onSaved(r.value);
  };
  return {
    message,
    /** Forgets the last answer: what was typed has changed, so Replace would no longer mean what it says. */
    reset: () => {
      setMessage(undefined);
      setClash(false);
    },
    /** The last save met a name clash: Replace is on offer until the name changes. */
    clash,
    save: (input: SaveInput) => send(input, false),
    /** Saves what the form holds now (not what met the clash) over the preset of that name. */
    replace: (input: SaveInput) => send(input, true),
  };
}

/**
 * The app's settings (theme, dismissed offers, automatic retry) in `settings.json`, written atomically with a
 * schema version; a corrupt file is moved aside and reported, and the defaults apply.
 */
import path from 'node:path';
import { z } from 'zod';
import { AppSettingsSchema, DEFAULT_SETTINGS, type AppSettings, type StartupProblem } from '../../shared/contract';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';

const SETTINGS_VERSION = 1;
const SettingsFile = z.object({ version: z.literal(SETTINGS_VERSION), settings: AppSettingsSchema.partial() });

export class SettingsStore {
  private settings: AppSettings = { ...DEFAULT_SETTINGS };
  private readonly file: string;
  private readonly queue = writeQueue();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, SettingsFile);
    if (read.value) this.settings = { ...DEFAULT_SETTINGS, ...read.value.settings };
    return read.problem ? [read.problem] : [];
  }

  get(): AppSettings {
    return { ...this.settings, bringDismissed: [...this.settings.bringDismissed] };
  }

  update(patch: Partial<AppSettings>): Promise<AppSettings> {
    return this.queue(async () => {
      const next = {
        ...this.settings,
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
      };
      await writeJsonAtomic(this.file, { version: SETTINGS_VERSION, settings: next });
      this.settings = next;
      return this.get();
    });
  }
}

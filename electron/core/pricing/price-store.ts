/**
 * Each profile's prices (multiplier and per-model overrides) in `prices.json`, written atomically with a
 * schema version; a corrupt file is moved aside and reported, and list prices apply.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_PRICE_SETTINGS,
  PriceSettingsSchema,
  type PriceSettings,
  type StartupProblem,
} from '../../../shared/contract';
import { readJsonFile, writeJsonAtomic, writeQueue } from '../atomic-file';

const PRICES_VERSION = 1;
const PricesFile = z.object({
  version: z.literal(PRICES_VERSION),
  profiles: z.record(z.string(), PriceSettingsSchema),
});

export class PriceStore {
  private profiles: Record<string, PriceSettings> = {};
  private readonly file: string;
  private readonly queue = writeQueue();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'prices.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, PricesFile);
    if (read.value) this.profiles = read.value.profiles;
    return read.problem ? [read.problem] : [];
  }

  get(profileId: string): PriceSettings {
    const p = this.profiles[profileId] ?? DEFAULT_PRICE_SETTINGS;
    return { multiplier: p.multiplier, overrides: { ...p.overrides } };
  }

  save(profileId: string, prices: PriceSettings): Promise<PriceSettings> {
    return this.queue(async () => {
      const next = { ...this.profiles, [profileId]: prices };
      await writeJsonAtomic(this.file, { version: PRICES_VERSION, profiles: next });
      this.profiles = next;
      return this.get(profileId);
    });
  }

  /** A deleted profile's prices go with it. */
  forget(profileId: string): Promise<void> {
    if (!(profileId in this.profiles)) return Promise.resolve();
    return this.queue(async () => {
      const next = { ...this.profiles };
      delete next[profileId];
      await writeJsonAtomic(this.file, { version: PRICES_VERSION, profiles: next });
      this.profiles = next;
    });
  }
}

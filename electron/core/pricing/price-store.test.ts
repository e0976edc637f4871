/** Prices over real files in a temp data dir: they survive a restart, per profile; a corrupt file is set aside. */
import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PRICE_SETTINGS } from '../../../shared/contract';
import { PriceStore } from './price-store';
import { tempDirs } from '../testing/temp-dirs';

const temp = tempDirs('gp-prices-');

describe('PriceStore', () => {
  it('a multiplier and an override survive a restart, for their profile only', async () => {
    const dataDir = temp();
    const s = new PriceStore(dataDir);
    expect(await s.load()).toEqual([]);
    expect(s.get('relay')).toEqual(DEFAULT_PRICE_SETTINGS);
    const prices = { multiplier: 1.2, overrides: { 'gpt-sim-4o': { inputMtok: 2, outputMtok: 8 } } };
    await s.save('relay', prices);
    const again = new PriceStore(dataDir);
    await again.load();
    expect(again.get('relay')).toEqual(prices);
    expect(again.get('other')).toEqual(DEFAULT_PRICE_SETTINGS);
    await again.forget('relay');
    const third = new PriceStore(dataDir);
    await third.load();
    expect(third.get('relay')).toEqual(DEFAULT_PRICE_SETTINGS);
  });

  it('a corrupt file is moved aside and reported; list prices apply', async () => {
    const dataDir = temp();
    writeFileSync(path.join(dataDir, 'prices.json'), '{"version":1,"profiles":{"a":{"multiplier":-1}}}');
    const s = new PriceStore(dataDir);
    const problems = await s.load();
    expect(problems).toHaveLength(1);
    expect(s.get('a')).toEqual(DEFAULT_PRICE_SETTINGS);
    expect(readdirSync(dataDir).some((f) => f.startsWith('prices.json.corrupt-'))).toBe(true);
  });
});

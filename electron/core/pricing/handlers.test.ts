/**
 * Prices and limits through the core's dispatch, as both hosts call it: a relay's own /v1/models entry gives
 * a model's limits before the catalog does; a saved price survives a restart and prices a run's usage.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostQuote, ModelLimits, PriceSettings, RunsCost } from '../../../shared/contract';
import { Capture, newCore, tempDir, value } from '../testing/core-harness';

let relay: http.Server;
let baseUrl: string;
beforeAll(async () => {
  // A relay whose models list states limits the way OpenRouter-style relays do.
  relay = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        object: 'list',
        data: [
          {
            id: 'relay-model',
            object: 'model',
            owned_by: 'relay',
            context_length: 131_072,
            max_completion_tokens: 8_192,
          },
          { id: 'claude-sonnet-4-20250514', object: 'model', owned_by: 'relay' },
        ],
      }),
    );
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => relay.close(() => r())));

const receiver = new Capture();

describe('prices and limits through dispatch', () => {
  it('prefers the gateway’s own figure, else the catalog’s, and says which', async () => {
    const { core } = await newCore(tempDir(), { demoGateway: { baseUrl, key: 'sk-relay-0123456789' } });
    value(await core.dispatch('models:list', { profileId: 'demo', refresh: true }, receiver));
    const own = value<ModelLimits>(
      await core.dispatch('models:limits', { profileId: 'demo', model: 'relay-model' }, receiver),
    );
    expect(own).toEqual({ model: 'relay-model', contextWindow: 131_072, maxOutput: 8_192, source: 'gateway' });
    const cat = value<ModelLimits>(
      await core.dispatch('models:limits', { profileId: 'demo', model: 'claude-sonnet-4-20250514' }, receiver),
    );
    expect(cat).toEqual({
      model: 'claude-sonnet-4-20250514',
      contextWindow: 200_000,
      maxOutput: 64_000,
      source: 'catalog',
    });
    await core.close();
  });

  it('a saved override survives a restart and prices the usage it is given', async () => {
    const dataDir = tempDir();
    const first = await newCore(dataDir, { demoGateway: { baseUrl, key: 'sk-relay-0123456789' } });
    const prices: PriceSettings = { multiplier: 2, overrides: { 'relay-model': { inputMtok: 10, outputMtok: 20 } } };
    value(await first.core.dispatch('prices:save', { profileId: 'demo', prices }, receiver));
    await first.core.close();
    const { core } = await newCore(dataDir, { demoGateway: { baseUrl, key: 'sk-relay-0123456789' } });
    expect(value(await core.dispatch('prices:get', { profileId: 'demo' }, receiver))).toEqual(prices);
    const usage = { inputTotal: 1_000, output: 500 };
    const { quotes } = value<{ quotes: CostQuote[] }>(
      await core.dispatch(
        'prices:quote',
        {
          profileId: 'demo',
          items: [
            { models: ['relay-model'], usage },
            { models: ['claude-sim-haiku'], usage },
          ],
        },
        receiver,
      ),
    );
    expect(quotes[0]).toMatchObject({ kind: 'priced', source: 'override' });
    expect(quotes[0].kind === 'priced' && quotes[0].usd).toBeCloseTo((1_000 * 10 + 500 * 20) / 1e6, 12);
    expect(quotes[1]).toMatchObject({ kind: 'none' });
    const bad = await core.dispatch(
      'prices:save',
      { profileId: 'demo', prices: { multiplier: 0, overrides: {} } },
      receiver,
    );
    expect(bad.ok).toBe(false);
    await core.close();
  });

  it('totals the runs of a check from the usage each reported, and counts those it no longer holds', async () => {
    const { core } = await newCore();
    const capture = new Capture();
    const body = { model: 'claude-sim-sonnet', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(
      await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, capture),
    );
    const result = await capture.end(runId);
    const before = value<RunsCost>(
      await core.dispatch('prices:runs', { profileId: 'demo', runIds: [runId, 'run_gone'] }, capture),
    );
    expect(before).toEqual({ usd: 0, priced: 0, unpriced: 1, missing: 1 });
    const prices = { multiplier: 1, overrides: { 'claude-sim-sonnet': { inputMtok: 3, outputMtok: 15 } } };
    value(await core.dispatch('prices:save', { profileId: 'demo', prices }, capture));
    const after = value<RunsCost>(await core.dispatch('prices:runs', { profileId: 'demo', runIds: [runId] }, capture));
    const u = result.metrics.usage;
    expect(after).toMatchObject({ priced: 1, unpriced: 0, missing: 0 });
    expect(after.usd).toBeCloseTo(((u.inputTotal ?? 0) * 3 + (u.output ?? 0) * 15) / 1e6, 12);
    expect(after.usd).toBeGreaterThan(0);
    await core.close();
  });
});

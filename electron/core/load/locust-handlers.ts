/**
 * The Locust calls (docs/load.md "Locust"): a load as a locustfile, and Locust's CSV output saved as a load run
 * beside the app's own. The file is made from the profile as saved, with no key and no secret header value in
 * it: those are read from environment variables where Locust runs.
 */
import { randomUUID } from 'node:crypto';
import type { CallName, LoadRecord } from '../../../shared/contract';
import { parseLocustCsv } from '../../../shared/load/locust-csv';
import { locustfile } from '../../../shared/load/locustfile';
import { RunError } from '../errors';
import type { CoreContext, Handlers } from '../core-context';
import type { LoadStore } from './load-store';

type LocustCall = Extract<CallName, `locust:${string}`>;

export function createLocustHandlers(ctx: CoreContext, store: LoadStore): Pick<Handlers, LocustCall> {
  return {
    'locust:export': async (input) => {
      const profile = ctx.profiles.get(input.profileId);
      if (!profile) throw new RunError('not_found', `No profile with id ${input.profileId}.`);
      const text = locustfile({
        baseUrl: profile.baseUrl,
        authScheme: profile.authScheme,
        hasKey: ctx.profiles.keyFor(profile.id) !== undefined,
        extraHeaders: profile.extraHeaders,
        secretHeaders: profile.secretHeaders,
        protocol: input.protocol,
        body: input.body,
        shape: input.shape ?? { kind: 'fixed' },
        fixed: {
          requests: input.requests,
          concurrency: input.concurrency,
          ratePerSec: input.ratePerSec,
          durationCapS: input.durationCapS,
        },
        idleTimeoutS: ctx.timeouts.idleMs / 1000,
        source: input.source,
      });
      return { text, fileName: 'locustfile.py' };
    },
    'locust:import': async ({ stats, history, failures, name }) => {
      const parsed = parseLocustCsv({ stats, history, failures });
      if (!parsed.ok) throw new RunError('invalid_input', parsed.error);
      const { protocol, startedAt, config, summary } = parsed.value;
      const record: LoadRecord = {
        loadId: `load_locust-${randomUUID()}`,
        startedAt: startedAt ?? new Date().toISOString(),
        state: 'finished',
        endReason: 'Imported from Locust',
        profileName: 'Locust',
        protocol: protocol ?? 'messages',
        source: name,
        config,
        summary,
        engine: 'locust',
        rows: [],
        rateLimits: [],
      };
      await store.add(record);
      const { rows: _rows, rateLimits: _rateLimits, ...run } = record;
      return { run };
    },
  };
}

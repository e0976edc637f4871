/** The ledger of a run: the request exactly as it went out, every secret in it redacted (docs/security.md). */
import type { z } from 'zod';
import type { Ledger, RunStartInput } from '../../../shared/contract';
import { urlShown, type BuiltRequest } from '../http/request';
import { proxyShown } from '../http/proxy';
import { scrub } from '../secrets';

export function ledgerOf(
  runId: string,
  input: z.output<typeof RunStartInput>,
  profile: { id: string; name: string },
  req: BuiltRequest,
): Ledger {
  return {
    runId,
    protocol: input.protocol,
    profileId: profile.id,
    profileName: profile.name,
    model: typeof input.body.model === 'string' ? input.body.model : undefined,
    stream: input.body.stream === true,
    method: 'POST',
    url: urlShown(req.url),
    ...(req.proxy ? { proxy: proxyShown(req.proxy) } : {}),
    headers: req.redactedHeaders,
    body: scrub(req.body ?? '', req.secrets),
    bodyBytes: Buffer.byteLength(req.body ?? ''),
    startedAt: new Date().toISOString(),
    warnings: input.warnings,
  };
}

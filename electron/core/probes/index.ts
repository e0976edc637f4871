/**
 * One probe per capability, each judged only by evidence in the response (docs/protocols.md §7), and the function
 * that runs one matrix cell into a stored result.
 */
import { capabilityApplies, type CapabilityId, type CapabilityResult } from '../../../shared/capabilities';
import { PROTOCOL_INFO } from '../../../shared/protocols/types';
import { probeBackground } from './background';
import { probeCaching } from './caching';
import type { RunTag } from '../runs';
import { ProbeCancelled, ProbeEnv, ProbeStop, type ProbeDeps, type ProbeTarget, type ProbeVerdict } from './harness';
import { probeStreaming } from './streaming';
import { probeStructuredOutput } from './structured-output';
import { probeThinking } from './thinking';
import { probeTokenCounting } from './token-counting';
import { probeToolRoundtrip, probeTools } from './tools';
import { probeVision } from './vision';

export { ProbeCancelled, type ProbeDeps, type ProbeTarget } from './harness';

export const PROBES: Record<CapabilityId, (env: ProbeEnv) => Promise<ProbeVerdict>> = {
  streaming: probeStreaming,
  tools: probeTools,
  'tool-roundtrip': probeToolRoundtrip,
  caching: probeCaching,
  thinking: probeThinking,
  vision: probeVision,
  'structured-output': probeStructuredOutput,
  'token-counting': probeTokenCounting,
  background: probeBackground,
};

export interface CellOutcome {
  result: CapabilityResult;
  /** Rate limited or overloaded: another attempt may succeed. */
  rateLimited?: boolean;
  retryAfterMs?: number;
}

/**
 * Runs one cell once. Throws ProbeCancelled when the job is cancelled or a probe run was stopped from
 * outside (nothing is recorded); every other ending, including an unexpected exception, becomes a result.
 */
export async function runProbe(
  deps: ProbeDeps,
  target: ProbeTarget,
  signal: AbortSignal,
  opts: { attempt?: number; runTimeoutMs?: number; tag?: RunTag } = {},
): Promise<CellOutcome> {
  const started = Date.now();
  const env = new ProbeEnv(deps, target, signal, opts.runTimeoutMs, opts.tag);
  let verdict: ProbeVerdict;
  if (!capabilityApplies(target.protocol, target.capability)) {
    verdict = {
      outcome: 'error',
      message: `${target.capability} does not exist on ${PROTOCOL_INFO[target.protocol].label}.`,
      explanation: 'This capability belongs to another protocol.',
    };
  } else {
    try {
      verdict = await PROBES[target.capability](env);
    } catch (err) {
      if (err instanceof ProbeCancelled) throw err;
      if (signal.aborted) throw new ProbeCancelled();
      if (err instanceof ProbeStop) verdict = err.verdict;
      else {
        verdict = {
          outcome: 'error',
          message: `The probe failed: ${err instanceof Error ? err.message : String(err)}`,
          explanation: 'Something went wrong in the app while probing; nothing was concluded about the gateway.',
        };
      }
    }
  }
  const result: CapabilityResult = {
    model: target.model,
    protocol: target.protocol,
    capability: target.capability,
    outcome: verdict.outcome,
    message: verdict.message,
    evidence: {
      runIds: [...env.runIds],
      fields: { ...env.extraEvidence, ...(verdict.fields ?? {}) },
      explanation: verdict.explanation,
      ...(verdict.text !== undefined ? { text: verdict.text } : {}),
    },
    at: new Date().toISOString(),
    attempts: opts.attempt ?? 1,
    durationMs: Date.now() - started,
  };
  if (verdict.status !== undefined) result.status = verdict.status;
  if (verdict.retryAfterMs !== undefined) result.retryAfter = new Date(Date.now() + verdict.retryAfterMs).toISOString();
  return { result, rateLimited: verdict.rateLimited, retryAfterMs: verdict.retryAfterMs };
}

import { CAPABILITY_IDS, CAPABILITY_INFO, type CapabilityId } from '../../../../shared/capabilities';

/** The matrix's column heads: short, so 22 columns fit; each is explained by its title and the legend. */
export const SHORT: Record<CapabilityId, string> = {
  streaming: 'str',
  tools: 'tool',
  'tool-roundtrip': 'rt',
  caching: 'cache',
  thinking: 'think',
  vision: 'vis',
  'structured-output': 'json',
  'token-counting': 'count',
  background: 'bg',
};

/** What each probe takes as proof, in a line (docs/protocols.md §7). */
export const PROOF: Record<CapabilityId, string> = {
  streaming: 'a real event stream of at least ten content deltas that reaches its terminal event',
  tools: 'a call to the offered tool whose arguments satisfy its schema',
  'tool-roundtrip': 'the reply after a tool result repeats the nonce only that result held',
  caching: 'the repeat of a long marked prefix reads tokens from the cache',
  thinking: 'a signed thinking block, a reasoning item or reasoning tokens above zero',
  vision: 'the reply reads a nonce drawn only in the image',
  'structured-output': 'bare JSON that satisfies the schema, with the nonce asked for',
  'token-counting': 'count_tokens answers within 10 % of the input the same request is billed',
  background: 'a background request is accepted: an id and status queued or in_progress',
};

export const OUTCOME_MARK = { proven: '✓', 'not-supported': '✗', inconclusive: '?', error: '!' } as const;

/** The column heads and cell marks in words, under the matrix. */
export function MatrixLegend() {
  return (
    <section className="matrix-legend" aria-label="Matrix legend">
      <dl>
        {CAPABILITY_IDS.map((c) => (
          <div key={c}>
            <dt className="mono">{SHORT[c]}</dt>
            <dd title={PROOF[c]}>{CAPABILITY_INFO[c].label}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">
        {OUTCOME_MARK.proven} proven · {OUTCOME_MARK['not-supported']} not supported · {OUTCOME_MARK.inconclusive}{' '}
        inconclusive (try again) · {OUTCOME_MARK.error} the gateway refused the probe · · not probed. A column head
        probes that column for every model shown.
      </p>
    </section>
  );
}

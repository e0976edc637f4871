/**
 * Recorded runs as a file: HAR 1.2 (what a browser's network panel imports: the request as sent, the response
 * as received, timings from the run's measured time to first byte and end) or the runs as JSON. Both are built
 * from the ledger, whose key and secret headers were redacted when it was made (docs/security.md §2, §5); the
 * file is redacted once more here, by header name and by the profile's secrets (the scrubber, §4), since it
 * leaves the app.
 */
import { HISTORY_EXPORT_FORMAT, type HistoryExportFormat, type RecordedRun } from '../../shared/contract';
import { SECRET_HEADER } from '../../shared/request-headers';
import type { RawEvent } from '../../shared/protocols/types';
import { scrubDeep } from './secrets';

interface HarHeader {
  name: string;
  value: string;
}

/** A header value under a credential's name is hidden whole, whatever the ledger already did to it. */
function harHeaders(headers: Record<string, string> | undefined): HarHeader[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({
    name,
    value: SECRET_HEADER.test(name) && !value.startsWith('[redacted') ? '[redacted]' : value,
  }));
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** A streamed answer as the event stream it arrived as: one `event:`/`data:` block per event kept. */
function eventStream(events: readonly RawEvent[]): string {
  return events
    .map((e) =>
      e.type === 'comment' ? `: ${e.data}\n\n` : `${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`,
    )
    .join('');
}

function harEntry(run: RecordedRun) {
  const { ledger, response, result } = run;
  const streamed = run.events.length > 0 && result.rawBody === undefined;
  const text = streamed ? eventStream(run.events) : (result.rawBody ?? '');
  const wait = Math.max(0, response?.ttfbMs ?? result.metrics.ttfbMs ?? 0);
  const receive = Math.max(0, result.metrics.totalMs - wait);
  const mimeType = response?.contentType ?? (streamed ? 'text/event-stream' : 'application/json');
  return {
    startedDateTime: ledger.startedAt,
    time: wait + receive,
    request: {
      method: ledger.method,
      url: ledger.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(ledger.headers),
      queryString: queryOf(ledger.url),
      ...(ledger.method === 'POST' ? { postData: { mimeType: 'application/json', text: ledger.body } } : {}),
      headersSize: -1,
      bodySize: ledger.bodyBytes,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      // Already made safe when the run was read (safeResponseHeaders): token counts keep their values here.
      headers: Object.entries(response?.headers ?? {}).map(([name, value]) => ({ name, value })),
      content: { size: Buffer.byteLength(text), mimeType, text },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: response ? result.metrics.bytes : -1,
      ...(response ? {} : { comment: result.reason }),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    comment: `${ledger.profileName} · ${ledger.model ?? '?'} · ${result.verdict}`,
  };
}

/** `secretsOf(run)`: what the run's profile is scrubbed of now (its key may have changed since). */
export function exportRuns(
  runs: readonly RecordedRun[],
  format: HistoryExportFormat,
  secretsOf: (run: RecordedRun) => readonly string[],
  version: string,
): { fileName: string; text: string } {
  const clean = runs.map((run) => {
    const secrets = secretsOf(run);
    const safe = {
      ...run,
      ledger: {
        ...run.ledger,
        headers: Object.fromEntries(harHeaders(run.ledger.headers).map((h) => [h.name, h.value])),
      },
    };
    return secrets.length ? scrubDeep(safe, [...secrets]) : safe;
  });
  const base = runs.length === 1 ? runs[0].ledger.runId : `runs-${runs.length}`;
  if (format === 'json') {
    const text = JSON.stringify({ format: HISTORY_EXPORT_FORMAT, version: 1, runs: clean }, null, 2);
    return { fileName: `${base}.json`, text };
  }
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'Gateway Playground', version },
      entries: clean.map(harEntry),
    },
  };
  return { fileName: `${base}.har`, text: JSON.stringify(har, null, 2) };
}

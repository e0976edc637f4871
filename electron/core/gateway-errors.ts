/**
 * Gateway error text in words, scrubbed AFTER parsing (docs/security.md §4). Parsing decodes what a search of
 * the raw body may not have recognised: an HTML page's character references, JSON escapes inside a message,
 * pieces of a key the page wrote apart. So the core reads a gateway's error text only through these, and
 * every string they return has been through the scrubber whatever the caller did to the body before.
 */
import type { GatewayErrorInfo } from '../../shared/contract/errors';
import type { StreamError } from '../../shared/protocols/types';
import { bodyErrorOf, parseGatewayError } from '../../shared/errors';
import { scrubDeep } from './secrets';

/** `parseGatewayError`, its every field scrubbed of `secrets`. */
export function gatewayErrorOf(
  secrets: readonly string[],
  status: number | undefined,
  headers: Record<string, string>,
  bodyText: string,
  options?: { now?: number; requestUrl?: string },
): GatewayErrorInfo {
  return scrubDeep(parseGatewayError(status, headers, bodyText, options), secrets);
}

/** `bodyErrorOf`, scrubbed of `secrets`: the error envelope inside a 2xx body, if there is one. */
export function bodyErrorIn(secrets: readonly string[], json: unknown): StreamError | undefined {
  const found = bodyErrorOf(json);
  return found && scrubDeep(found, secrets);
}

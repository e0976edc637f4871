/** A gateway or network failure, as shown to the user: never just "failed". */
export interface GatewayErrorInfo {
  /** HTTP status; absent for network errors. */
  status?: number;
  /**
   * The family's error type (`authentication_error`, `rate_limit_exceeded`…), `gateway_error` for non-JSON
   * bodies, `redirect` for a 3xx (never followed), or for network errors
   * `network:refused|dns|tls|reset|timeout|invalid-header|decoding|proxy|unknown`.
   */
  type: string;
  message: string;
  code?: string;
  requestId?: string;
  /** Seconds, from retry-after-ms / retry-after. */
  retryAfter?: number;
  /** The body as received (HTML is kept as text and never rendered), capped. */
  rawBody?: string;
  contentType?: string;
}

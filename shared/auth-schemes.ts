/** How a profile sends its key (see shared/request-headers.ts); apart from the contract so both can import it. */
export const AUTH_SCHEMES = ['native', 'x-api-key', 'bearer', 'both'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

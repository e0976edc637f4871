import { z } from 'zod';
import { defineCall } from './define';
import { ProtocolSchema } from './runs';
import type { Loss } from '../translate';

export type { Loss } from '../translate';

/** One slice of a count: which part of the request costs what. */
export interface TokenBreakdownItem {
  /** "system", "turn 1 (user)", "tools". */
  label: string;
  tokens: number;
}

export interface TokenCount {
  inputTokens: number;
  /** Who counted: the gateway's count_tokens, the gateway after translating to the Messages shape, or us. */
  source: 'gateway' | 'gateway-via-translation' | 'estimate';
  /** What the UI shows beside the number: "gateway count" | "gateway count, via translation" | "estimate". */
  label: string;
  /** Why a gateway count was wanted but an estimate is shown, e.g. "count_tokens answered 404 (…) — showing a local estimate". */
  fallbackReason?: string;
  /** What the translation to the Messages shape lost that changes what is counted (only for "gateway-via-translation"). */
  losses?: Loss[];
  breakdown?: TokenBreakdownItem[];
  /** How the breakdown was made, when it is not a count of its own (a gateway total split by local proportions). */
  breakdownNote?: string;
}

export const UseGatewaySchema = z.enum(['auto', 'always', 'never']);
export type UseGateway = z.infer<typeof UseGatewaySchema>;

export const TokenCountInput = z
  .object({
    profileId: z.string().min(1).max(100),
    protocol: ProtocolSchema,
    /** The composer's body as parsed JSON: the counter never guesses at text that does not parse. */
    body: z.record(z.string(), z.unknown()),
    /** "auto": ask the gateway when the model is first-family; "always"/"never" are the user's override. */
    useGateway: UseGatewaySchema.default('auto'),
    breakdown: z.boolean().optional(),
  })
  .strict();
export type TokenCountInput = z.input<typeof TokenCountInput>;

export const tokenCalls = {
  'tokens:count': defineCall<TokenCount>()(TokenCountInput),
};

import { z } from 'zod';
import { defineCall } from './define';
import type { GatewayErrorInfo } from './errors';

export interface ModelInfo {
  id: string;
  displayName?: string;
  /** Which list shape named it: `type:"model"` entries are the first family's, `object:"model"` the second's. */
  family: 'anthropic' | 'openai' | 'unknown';
  createdAt?: string;
  ownedBy?: string;
  /** Gateway hints (supported_endpoint_types, context_length…): shown, never trusted as proof. */
  extra?: Record<string, unknown>;
  /**
   * A model the built-in Demo gateway serves to show a failure (a cut stream, a 429, a firehose…): set by the
   * core, so pickers can leave it out of defaults and comparisons without knowing the simulator's names.
   */
  fault?: true;
}

export interface ModelList {
  profileId: string;
  models: ModelInfo[];
  /** ISO time of the fetch that produced `models`. */
  fetchedAt?: string;
  /** Ids that appeared / disappeared since the previous fetch for this profile. */
  added: string[];
  removed: string[];
  /** Pages followed (first family's has_more / last_id pagination). */
  pages: number;
  /** The last fetch failed: the list shown is the one kept from before (may be empty). */
  error?: GatewayErrorInfo;
  /** The model to start with: the Demo gateway's everyday model, else the first listed that is not a fault model. */
  suggested?: string;
}

export const modelCalls = {
  'models:list': defineCall<ModelList>()(
    z.object({ profileId: z.string().min(1).max(100), refresh: z.boolean().default(false) }).strict(),
  ),
};

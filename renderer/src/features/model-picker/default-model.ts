import type { ModelList, ProfileView } from '../../../../shared/contract';

/**
 * The model a tab starts with when its body names none, so Send works at once on the built-in Demo gateway (on
 * the user's own gateways the choice is theirs). The core says which model that is (`suggested`).
 */
export function defaultModel(profile: ProfileView | undefined, list: ModelList | undefined): string | undefined {
  if (profile?.builtin !== 'demo') return undefined;
  return list?.suggested;
}

import type { ModelList, ProfileView } from '../../../../shared/contract';

/**
 * The model a tab starts with when its body names none, so Send works at once on the built-in profiles: the Demo
 * gateway and the Environment one (GATEWAY_BASE_URL, set up to be used at once). On the profiles the user made
 * the choice is theirs. The core says which model that is (`suggested`).
 */
export function defaultModel(profile: ProfileView | undefined, list: ModelList | undefined): string | undefined {
  if (profile?.builtin !== 'demo' && profile?.builtin !== 'env') return undefined;
  return list?.suggested;
}

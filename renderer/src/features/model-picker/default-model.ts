import type { ModelList, ProfileView } from '../../../../shared/contract';

/**
 * The model a tab starts with when its body names none, so Send works at once on the built-in Demo gateway (on
 * the user's own gateways the choice is theirs). The one place that decides it: the core is to say which model
 * is its default; until it does, the first listed model not owned by the simulator (which owns its fault
 * models) is taken.
 */
export function defaultModel(profile: ProfileView | undefined, list: ModelList | undefined): string | undefined {
  if (profile?.builtin !== 'demo') return undefined;
  const models = list?.models ?? [];
  return (models.find((m) => m.ownedBy !== 'simulator') ?? models[0])?.id;
}

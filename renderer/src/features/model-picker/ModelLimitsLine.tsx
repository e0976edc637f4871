import { tokensShort } from '../../../../shared/model-limits';
import { useModelLimits } from './use-model-limits';

const SOURCE_WORDS = { gateway: 'gateway', catalog: 'models.dev' } as const;
const SOURCE_TITLES = {
  gateway: 'As this gateway’s own /v1/models entry states it',
  catalog: 'From the models.dev catalog (tokenlens): this gateway’s models list does not say',
} as const;

/** "context 200K · output 64K (gateway)": the chosen model's limits and who said so; nothing when nobody did. */
export function ModelLimitsLine({ profileId, model }: { profileId?: string; model: string }) {
  const limits = useModelLimits(profileId, model);
  if (!limits?.contextWindow || !limits.source || limits.model !== model.trim()) return null;
  const output = limits.maxOutput ? ` · output ${tokensShort(limits.maxOutput)}` : '';
  const text = `context ${tokensShort(limits.contextWindow)}${output} (${SOURCE_WORDS[limits.source]})`;
  return (
    <span className="context-limits muted small" role="note" aria-label={text} title={SOURCE_TITLES[limits.source]}>
      {text}
    </span>
  );
}

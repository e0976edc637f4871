import { fitWarning, outputCap } from '../../../../shared/model-limits';
import { getModel } from '../../../../shared/protocols/compose';
import { useModelLimits } from '../model-picker/use-model-limits';

/**
 * Before sending: whether the request can fit the model's window, its input counted plus the output it
 * reserves (max tokens). Silent while the count or the window is unknown.
 */
export function FitWarning({
  profileId,
  body,
  inputTokens,
}: {
  profileId?: string;
  body: Record<string, unknown>;
  inputTokens: number | undefined;
}) {
  const limits = useModelLimits(profileId, getModel(body));
  const warning = fitWarning(inputTokens, outputCap(body), limits?.contextWindow);
  if (!warning) return null;
  return (
    <span className="fit-warning warn" role="alert" aria-label="Context warning">
      {' '}
      ⚠ {warning}
    </span>
  );
}

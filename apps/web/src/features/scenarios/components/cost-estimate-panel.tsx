import { Calculator } from 'lucide-react';
import { assumedOutputTokens, estimateRunCost } from '../utils/cost-estimate';
import { formatTokens, formatUsd } from '../utils/format-run';
import { modelLabel, providerLabel } from '../utils/model-label';
import { draftParameters, filledPrompts, type SetupDraft } from '../utils/setup-draft';

/** The cost of the run before it starts, per model and in all, from the list prices. */
export const CostEstimatePanel = ({ draft }: { draft: SetupDraft }) => {
  const prompts = filledPrompts(draft);
  const estimate = estimateRunCost({
    systemPrompt: prompts.system,
    userPrompt: prompts.user,
    maxTokens: draftParameters(draft).max_tokens ?? null,
    targets: draft.targets,
  });
  const total =
    estimate.unknownPrices === estimate.targets.length
      ? 'unknown'
      : `≈ ${formatUsd(estimate.knownUsd)}${estimate.unknownPrices > 0 ? ' + unknown' : ''}`;
  return (
    <section aria-labelledby="cost-estimate-title" className="rounded-lg border bg-muted/30 p-4">
      <h3 id="cost-estimate-title" className="flex items-center gap-2 text-sm font-medium">
        <Calculator aria-hidden="true" className="size-4 text-muted-foreground" />
        Estimated cost: <span data-testid="estimated-total">{total}</span>
      </h3>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">Estimated cost per model</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Model
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Input tokens
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Output tokens
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Cost
              </th>
            </tr>
          </thead>
          <tbody>
            {estimate.targets.map((target, i) => (
              <tr key={i} className="border-t">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {providerLabel(target.provider)} · {modelLabel(target.provider, target.model)}
                </th>
                <td className="py-1 pr-3 text-right tabular-nums">
                  ≈ {formatTokens(target.inputTokens)}
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  ≤ {formatTokens(target.outputTokens)}
                </td>
                <td className="py-1 text-right tabular-nums">
                  {target.usd === null ? 'unknown price' : formatUsd(target.usd)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-muted-foreground">
        Input is counted as characters ÷ 4 of the system prompt and prompt;{' '}
        {estimate.outputAssumed
          ? `output assumes ${formatTokens(assumedOutputTokens)} tokens per model (no max tokens set)`
          : 'output is counted at max tokens per model'}
        , at list prices. The provider&apos;s bill is what counts.
      </p>
    </section>
  );
};

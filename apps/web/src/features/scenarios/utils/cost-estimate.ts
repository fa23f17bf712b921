import { estimateCostUsd } from '@chorus/shared/prices';
import { isProviderId, resolveModel } from '@chorus/shared/providers';

/** Output tokens counted per model when the setup sets no `max_tokens`. */
export const assumedOutputTokens = 500;

/** A rough count: about four characters a token in English text. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export type TargetEstimate = {
  provider: string;
  /** The model the run would call (the provider's default when none is picked). */
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Null when the price table does not know the model. */
  usd: number | null;
};

export type RunEstimate = {
  targets: TargetEstimate[];
  /** The sum over the models whose price is known. */
  knownUsd: number;
  unknownPrices: number;
  /** True when no `max_tokens` is set and `assumedOutputTokens` was counted instead. */
  outputAssumed: boolean;
};

type EstimateInput = {
  systemPrompt: string;
  /** As it will be sent: variables filled in. */
  userPrompt: string;
  maxTokens: number | null;
  targets: { provider: string; model: string }[];
};

/**
 * What a run should cost before it starts: each model reads the system and user prompt
 * (characters ÷ 4) and writes up to `max_tokens` (or an assumed 500) tokens, at its list price.
 */
export const estimateRunCost = ({
  systemPrompt,
  userPrompt,
  maxTokens,
  targets,
}: EstimateInput): RunEstimate => {
  const inputTokens = estimateTokens(systemPrompt) + estimateTokens(userPrompt);
  const outputTokens = maxTokens ?? assumedOutputTokens;
  const estimates = targets.map(({ provider, model }): TargetEstimate => {
    if (!isProviderId(provider)) return { provider, model, inputTokens, outputTokens, usd: null };
    const resolved = resolveModel(provider, model);
    return {
      provider,
      model: resolved,
      inputTokens,
      outputTokens,
      usd: estimateCostUsd(provider, resolved, { input: inputTokens, output: outputTokens }),
    };
  });
  const known = estimates.flatMap((estimate) => (estimate.usd === null ? [] : [estimate.usd]));
  return {
    targets: estimates,
    knownUsd: Math.round(known.reduce((sum, usd) => sum + usd, 0) * 1_000_000) / 1_000_000,
    unknownPrices: estimates.length - known.length,
    outputAssumed: maxTokens === null,
  };
};

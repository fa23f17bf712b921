import type { TestRunEstimate, TestTarget } from '@chorus/shared/api/test-runs';
import { estimateCostUsd } from '@chorus/shared/prices';
import { resolveModel, type ProviderId } from '@chorus/shared/providers';
import { describeProviderKeys } from '../ai/keys.ts';
import { findPlanForUser } from '../db/repositories/pricing-plans.ts';
import { UsageRepository } from '../db/repositories/usage.ts';
import type { Deps } from '../http/app-env.ts';
import { utcDate } from '../quota/quota.ts';
import { messageOf, type RunPlan } from './plan.ts';

/** A reply's length when the case says nothing of it (no expected output), in tokens. */
export const DEFAULT_OUTPUT_TOKENS = 300;
/** The judge's own instructions around the rubric and the quoted output, in tokens. */
const JUDGE_OVERHEAD_TOKENS = 200;
/** The judge's structured answer (pass, score, reason), in tokens. */
const JUDGE_OUTPUT_TOKENS = 80;

/** Roughly four characters a token, for every provider: an estimate, never a bill. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Calls and tokens of a run before it starts; its price from the table, where known. */
export const estimatePlan = (
  plan: RunPlan,
  targets: readonly TestTarget[],
  repeats: number,
): Omit<TestRunEstimate, 'prompts_left_today' | 'missing_keys'> => {
  const system = tokensOf(plan.subject.system);
  let inputTokens = 0;
  let outputTokens = 0;
  let judgeCalls = 0;
  let cost = 0;
  let priced = false;
  const addCost = (provider: ProviderId, model: string, input: number, output: number) => {
    const usd = estimateCostUsd(provider, resolveModel(provider, model), { input, output });
    if (usd === null) return;
    priced = true;
    cost += usd;
  };
  for (const c of plan.cases) {
    const input = system + tokensOf(messageOf(plan, c));
    const output =
      c.expected_output !== null && c.expected_output.trim() !== ''
        ? tokensOf(c.expected_output)
        : DEFAULT_OUTPUT_TOKENS;
    for (const target of targets) {
      inputTokens += input * repeats;
      outputTokens += output * repeats;
      addCost(target.provider, target.model, input * repeats, output * repeats);
      for (const a of c.assertions) {
        if (a.type !== 'judge') continue;
        const judgeInput = JUDGE_OVERHEAD_TOKENS + tokensOf(a.rubric) + output;
        judgeCalls += repeats;
        inputTokens += judgeInput * repeats;
        outputTokens += JUDGE_OUTPUT_TOKENS * repeats;
        addCost(a.provider, a.model ?? '', judgeInput * repeats, JUDGE_OUTPUT_TOKENS * repeats);
      }
    }
  }
  return {
    calls: plan.cases.length * targets.length * repeats,
    judge_calls: judgeCalls,
    estimated_input_tokens: inputTokens,
    estimated_output_tokens: outputTokens,
    estimated_cost_usd: priced ? Math.round(cost * 1_000_000) / 1_000_000 : null,
  };
};

/**
 * What a run would cost and whether it can go: the plan's estimate, the prompts left today on
 * the user's plan, and the providers (targets' and judges') with no key the user could use.
 */
export const estimateTestRun = async (
  deps: Deps,
  userId: string,
  plan: RunPlan,
  targets: readonly TestTarget[],
  repeats: number,
): Promise<TestRunEstimate> => {
  const db = deps.database.db;
  const providerIds = [
    ...new Set<ProviderId>([
      ...targets.map((t) => t.provider),
      ...plan.cases.flatMap((c) =>
        c.assertions.flatMap((a) => (a.type === 'judge' ? [a.provider] : [])),
      ),
    ]),
  ];
  const [planRow, used, keys] = await Promise.all([
    findPlanForUser(db, userId),
    new UsageRepository(db, userId).countOn(utcDate(new Date())),
    describeProviderKeys(deps, { userId, providerIds }),
  ]);
  const limit = planRow.daily_prompt_limit;
  return {
    ...estimatePlan(plan, targets, repeats),
    prompts_left_today: limit === null ? null : Math.max(0, limit - used),
    missing_keys: keys.filter((k) => k.source === null).map((k) => k.provider),
  };
};

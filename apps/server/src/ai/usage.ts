import type { UsageSource } from '@chorus/shared/api/usage';
import { estimateCostUsd } from '@chorus/shared/prices';
import type { ProviderId } from '@chorus/shared/providers';
import type { Db } from '../db/client.ts';
import { UsageRepository } from '../db/repositories/usage.ts';
import type { PendingWrites } from '../lifecycle/pending-writes.ts';

export type Tokens = { inputTokens?: number | undefined; outputTokens?: number | undefined };

export type CallUsage = {
  inputTokens: number;
  outputTokens: number;
  /** Estimated from the price table; null when the model's price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  /** Time to the first token, for streamed calls that produced one. */
  ttftMs: number | null;
};

/**
 * Times one model call and writes its usage_events row once, whatever way the call ends
 * (finish, abort or error can each report it). The write is retried while the database is away
 * (`saves`); a failure is logged, never shown.
 */
export const usageMeter = (opts: {
  db: Db;
  saves: PendingWrites;
  userId: string;
  source: UsageSource;
  provider: ProviderId;
  model: string;
}) => {
  const started = performance.now();
  let firstToken: number | null = null;
  let recorded: { usage: CallUsage; saved: Promise<boolean> } | undefined;
  return {
    firstToken() {
      firstToken ??= performance.now();
    },
    /**
     * Measures the call (once) and writes its row. The figures are known at once; `saved` settles
     * when the row is written (true) or given up (false), so a caller can store its own result
     * beside it.
     */
    record(status: 'ok' | 'error', tokens?: Tokens): { usage: CallUsage; saved: Promise<boolean> } {
      if (recorded) return recorded;
      // Some providers report no counts (Gemini's embeddings): those count as 0, never NaN.
      const count = (n: number | undefined) => (Number.isFinite(n) ? Math.round(n!) : 0);
      const input = count(tokens?.inputTokens);
      const output = count(tokens?.outputTokens);
      const usage: CallUsage = {
        inputTokens: input,
        outputTokens: output,
        costUsd: estimateCostUsd(opts.provider, opts.model, { input, output }),
        latencyMs: Math.round(performance.now() - started),
        ttftMs: firstToken === null ? null : Math.round(firstToken - started),
      };
      const repo = new UsageRepository(opts.db, opts.userId);
      const saved = opts.saves.run('usage', () =>
        repo.record({
          source: opts.source,
          provider: opts.provider,
          model: opts.model,
          input_tokens: input,
          output_tokens: output,
          cost_usd: usage.costUsd,
          latency_ms: usage.latencyMs,
          ttft_ms: usage.ttftMs,
          status,
        }),
      );
      recorded = { usage, saved };
      return recorded;
    },
  };
};

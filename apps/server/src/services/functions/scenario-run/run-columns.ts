import type {
  ScenarioParameters,
  ScenarioRunEvent,
  ScenarioRunResult,
} from '@chorus/shared/api/scenarios';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { providers, resolveModel, type ProviderId } from '@chorus/shared/providers';
import { prepareModelCall, type CallUsage, type ModelCall } from '../../../ai/model-call.ts';
import { ScenarioRunsRepository } from '../../../db/repositories/scenarios.ts';
import type { Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { SAVE_WAIT_MS, settledWithin } from '../../../lifecycle/pending-writes.ts';

export type Column = Omit<ScenarioRunResult, 'rating'>;
export type Target = { provider: ProviderId; model: string };
type ColumnError = NonNullable<Column['error']>;

/** The model a target runs: its provider's default when none is named. */
export const modelOf = (target: Target): string =>
  target.model.trim() ? target.model.trim() : resolveModel(target.provider, null);

/** A column that has not ended yet, as the run row holds it at the start. */
export const pendingColumn = (target: Target): ScenarioRunResult => ({
  provider: target.provider,
  model: modelOf(target),
  text: '',
  ttft_ms: null,
  latency_ms: null,
  input_tokens: null,
  output_tokens: null,
  cost_usd: null,
  error: null,
  rating: null,
});

const errorOf = (code: ErrorCode, message: string): ColumnError => ({ code, message });

/** Why a column stopped before its answer ended, when the run itself was stopped. */
export type StopReason = 'caller' | 'server';

export type RunColumnsOptions = {
  deps: Deps;
  userId: string;
  runId: string;
  targets: Target[];
  system: string;
  prompt: string;
  parameters: ScenarioParameters;
  /** Fires when the client went away or the server is stopping (`stopReason` says which). */
  signal: AbortSignal;
  stopReason: () => StopReason;
  /** Sends an event to the client; resolves when it may send the next (backpressure). */
  emit: (event: ScenarioRunEvent) => Promise<void>;
};

/**
 * Runs every target of a scenario run at once, each in its own column: a column that cannot run
 * or fails ends with its error while the others go on. Each column is stored in the run row as it
 * ends, and the run is marked done once all have, however the request ended (the client may have
 * gone). Resolves with every column once the run's last save has been tried.
 */
export const runColumns = async (opts: RunColumnsOptions): Promise<Column[]> => {
  const { deps, signal } = opts;
  const runs = new ScenarioRunsRepository(deps.database.db, opts.userId);
  const log = deps.log.child({ userId: opts.userId, runId: opts.runId });
  const stopped = (): ColumnError =>
    opts.stopReason() === 'server'
      ? errorOf('chat:server_restarting', messageFor('chat:server_restarting'))
      : errorOf('provider:interrupted', messageFor('provider:interrupted'));

  /**
   * Admits one target (key, plan and quota). Each target is a model call that counts one prompt
   * against the caller's daily quota, so a run of eight columns uses eight: the admissions go in
   * column order, and the columns past the quota fail with `quota:exceeded` while the earlier
   * ones run. None spends a point of the `data` rate-limit window: the request already spent
   * one, as every /functions/v1 call does, so a run costs one point however many columns it has.
   */
  const admit = async (target: Target): Promise<ModelCall | ColumnError> => {
    const name = providers[target.provider].name;
    const wanted = target.model.trim();
    // A model the provider does not offer would silently become its default: not a comparison.
    if (wanted && resolveModel(target.provider, wanted) !== wanted) {
      return errorOf(
        'provider:unknown_model',
        messageFor('provider:unknown_model', { provider: name }),
      );
    }
    if (signal.aborted) return stopped();
    try {
      return await prepareModelCall(deps, {
        userId: opts.userId,
        source: 'scenario',
        provider: target.provider,
        model: wanted || null,
        rateLimit: 'none',
      });
    } catch (error) {
      if (error instanceof ApiError) return errorOf(error.code, error.message);
      log.error({ err: error, provider: target.provider }, 'admitting a scenario column failed');
      return errorOf('request:failed', messageFor('request:failed'));
    }
  };

  const measured = (text: string, usage: CallUsage | null, error: ColumnError | null) => ({
    text,
    ttft_ms: usage?.ttftMs ?? null,
    latency_ms: usage?.latencyMs ?? null,
    // Counts and cost are only known for an answer that ended as the provider meant it to.
    input_tokens: error || !usage ? null : usage.inputTokens,
    output_tokens: error || !usage ? null : usage.outputTokens,
    cost_usd: error || !usage ? null : usage.costUsd,
    error,
  });

  const stream = async (index: number, call: ModelCall) => {
    if (signal.aborted) {
      await call.refund();
      return measured('', null, stopped());
    }
    let text = '';
    let firstTokenAt: number | null = null;
    let settle!: (column: ReturnType<typeof measured>) => void;
    const ended = new Promise<ReturnType<typeof measured>>((resolve) => (settle = resolve));
    const started = performance.now();
    const streamed = call.stream(
      {
        messages: [{ role: 'user', content: opts.prompt }],
        system: opts.system.trim() || undefined,
        temperature: opts.parameters.temperature ?? undefined,
        maxOutputTokens: opts.parameters.max_tokens ?? undefined,
        signal,
      },
      {
        onFinish: ({ text: whole, usage }) => settle(measured(whole, usage, null)),
        onAbort: ({ by, usage }) =>
          settle(
            measured(
              text,
              usage,
              by === 'timeout'
                ? errorOf(
                    'provider:timeout',
                    messageFor('provider:timeout', { provider: providers[call.provider].name }),
                  )
                : stopped(),
            ),
          ),
        onError: ({ code, message, usage }) =>
          settle(measured(text, usage, errorOf(code, message))),
      },
    );
    try {
      for await (const part of streamed.result.fullStream) {
        if (part.type !== 'text-delta' || part.text === '') continue;
        text += part.text;
        if (firstTokenAt === null) {
          firstTokenAt = performance.now();
          await opts.emit({
            type: 'first_token',
            target: index,
            ttft_ms: Math.round(firstTokenAt - started),
          });
        }
        await opts.emit({ type: 'delta', target: index, text: part.text });
      }
    } catch (error) {
      streamed.reportFailure(error);
    }
    // Every way a call ends reports it; this only guards against one that never does.
    return (
      (await settledWithin(ended, SAVE_WAIT_MS)) ??
      measured(
        text,
        null,
        signal.aborted
          ? stopped()
          : errorOf(
              'provider:interrupted',
              messageFor('provider:interrupted', { provider: providers[call.provider].name }),
            ),
      )
    );
  };

  const saves: Promise<boolean>[] = [];
  let admissions: Promise<unknown> = Promise.resolve();
  const columns = await Promise.all(
    opts.targets.map(async (target, index): Promise<Column> => {
      const admitted = admissions.then(() => admit(target));
      admissions = admitted;
      const call = await admitted;
      const outcome = 'stream' in call ? await stream(index, call) : measured('', null, call);
      const column: Column = {
        provider: target.provider,
        model: 'stream' in call ? call.model : modelOf(target),
        ...outcome,
      };
      saves.push(
        deps.saves.run('scenario run column', () =>
          runs.saveResult(opts.runId, index, { ...column, rating: null }),
        ),
      );
      await opts.emit({ type: 'result', target: index, result: column });
      return column;
    }),
  );
  const finished = Promise.allSettled(saves).then(() =>
    deps.saves.run('scenario run end', () => runs.finish(opts.runId)),
  );
  // A client reading the run right after its end finds it stored; an outage never holds it open.
  await settledWithin(finished, SAVE_WAIT_MS);
  return columns;
};

import { providerIds, isProviderId, type ProviderId } from '@chorus/shared/providers';
import { describeProviderKeys } from '../../../ai/keys.ts';
import { prepareModelCall } from '../../../ai/model-call.ts';
import { classifyProviderError } from '../../../ai/provider-errors.ts';
import { SettingsRepository } from '../../../db/repositories/settings.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { trendsOf } from '../../rest/trends/trends-data.ts';
import { trendsSystemPrompt } from './trends-context.ts';
import { trendsAskRoute } from './trends-ask.routes.ts';

/** An answer about trends is a few paragraphs; this bounds what one question can cost. */
const MAX_OUTPUT_TOKENS = 1_500;

/**
 * The provider (and model) to ask when the request names none: the user's default provider when
 * a key serves it, else the first enabled provider with a stored key, else OpenAI (which then
 * answers `keys:missing`, naming the provider to add a key for).
 */
const chooseModel = async (
  deps: Deps,
  userId: string,
  asked: { provider?: ProviderId | undefined; model?: string | undefined },
): Promise<{ provider: ProviderId; model: string | null }> => {
  if (asked.provider) return { provider: asked.provider, model: asked.model ?? null };
  const [settings, keys] = await Promise.all([
    new SettingsRepository(deps.database.db, userId).get(),
    describeProviderKeys(deps, { userId, providerIds }),
  ]);
  const preferred = settings?.default_ai_provider;
  if (isProviderId(preferred)) {
    const key = keys.find((k) => k.provider === preferred);
    if (key?.enabled && key.source !== null) {
      return { provider: preferred, model: asked.model ?? settings?.default_ai_model ?? null };
    }
  }
  const stored = keys.find((k) => k.enabled && k.source !== null && k.source !== 'none');
  return { provider: stored?.provider ?? 'openai', model: asked.model ?? null };
};

const refusal = (provider: ProviderId, error: unknown): ApiError => {
  const failure = classifyProviderError(provider, error);
  return failure.code === 'provider:timeout'
    ? new ApiError(504, 'provider:timeout', failure.message)
    : new ApiError(502, 'provider:failed', failure.message);
};

export const trendsAskRouter = createRouter<AuthedEnv>().openapi(trendsAskRoute, async (c) => {
  const { deps, user } = c.var;
  const body = c.req.valid('json');
  const [{ provider, model }, trends] = await Promise.all([
    chooseModel(deps, user.id, body),
    trendsOf(deps.database.db),
  ]);
  // Key, rate limit, plan and quota: a refused question never reaches a provider.
  const call = await prepareModelCall(deps, {
    userId: user.id,
    source: 'trends',
    provider,
    model,
  });

  const stop = new AbortController();
  const live = deps.streams.track({ interrupt: () => stop.abort() });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    live.done();
  };
  const streamed = call.stream({
    messages: [{ role: 'user', content: body.question }],
    system: trendsSystemPrompt(trends),
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    signal: AbortSignal.any([c.req.raw.signal, stop.signal]),
  });
  const parts = streamed.result.fullStream[Symbol.asyncIterator]();

  /** The next text, or null once the answer ended (finished, stopped or failed). */
  const nextText = async (): Promise<string | null> => {
    for (;;) {
      const { value: part, done } = await parts.next();
      if (done) return null;
      if (part.type === 'text-delta' && part.text !== '') return part.text;
      if (part.type === 'error') throw part.error;
    }
  };

  // Nothing is answered before the first text: a provider that fails first gets a JSON error.
  let first: string | null;
  try {
    first = await nextText();
  } catch (error) {
    finish();
    streamed.reportFailure(error);
    throw refusal(call.provider, error);
  }

  const encoder = new TextEncoder();
  const answer = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first === null) {
        finish();
        controller.close();
      } else {
        controller.enqueue(encoder.encode(first));
      }
    },
    async pull(controller) {
      try {
        const text = await nextText();
        if (text !== null) return controller.enqueue(encoder.encode(text));
      } catch (error) {
        // The client has what arrived; it ends there and the client offers to ask again.
        streamed.reportFailure(error);
      }
      finish();
      controller.close();
    },
    async cancel() {
      stop.abort();
      finish();
      await parts.return?.();
    },
  });
  return c.body(answer, 200, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  }) as never;
});

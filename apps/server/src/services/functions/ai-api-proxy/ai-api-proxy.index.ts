import { generateText } from 'ai';
import { keyMessages } from '@chorus/shared/messages';
import { providers, resolveModel, type ProviderId } from '@chorus/shared/providers';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getLanguageModel } from '../../../providers/registry.ts';
import { resolveProviderKey } from '../../keys/resolve-key.ts';
import { describeProviderError } from '../../../providers/provider-errors.ts';
import { chargePrompt, usageRecorder } from '../../../quota/quota.ts';
import { aiApiProxyRoute } from './ai-api-proxy.routes.ts';

/** Spec §5: these providers are only reached through the provider selection, never a raw key. */
const noDirectCalls: ProviderId[] = ['openai', 'anthropic', 'gemini'];

export const aiApiProxyRouter = createRouter<AuthedEnv>().openapi(aiApiProxyRoute, async (c) => {
  const { deps, user } = c.var;
  const body = c.req.valid('json');
  const name = providers[body.provider].name;
  if (body.apiKey?.trim() && noDirectCalls.includes(body.provider)) {
    throw new ApiError(400, 'proxy:direct_call', keyMessages.directCallNotAllowed(name));
  }
  const key = await resolveProviderKey({
    db: deps.database.db,
    box: deps.box,
    userId: user.id,
    provider: body.provider,
    explicitKey: body.apiKey,
    log: deps.log,
  });
  if (!key) {
    throw new ApiError(
      400,
      'keys:missing',
      `No ${name} API key is available to you. Add one on the API keys page.`,
    );
  }
  const model = resolveModel(body.provider, body.model);
  await chargePrompt({ db: deps.database.db, userId: user.id, provider: body.provider, model });
  const recordUsage = usageRecorder({
    db: deps.database.db,
    userId: user.id,
    kind: 'proxy',
    provider: body.provider,
    model,
    log: deps.log,
  });
  try {
    const { text, totalUsage } = await generateText({
      model: getLanguageModel({
        provider: body.provider,
        model,
        apiKey: key.apiKey,
        baseUrls: deps.config.providerBaseUrls,
      }),
      messages: body.messages,
      maxRetries: 1,
      abortSignal: AbortSignal.any([AbortSignal.timeout(body.timeout), c.req.raw.signal]),
    });
    await recordUsage('ok', totalUsage);
    return c.json({ response: text }, 200);
  } catch (error) {
    await recordUsage('error');
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new ApiError(
        504,
        'proxy:timeout',
        `${name} did not answer within ${Math.round(body.timeout / 1000)} s. Try again or raise the timeout.`,
      );
    }
    deps.log.warn(
      { provider: body.provider, err: error instanceof Error ? error.message : String(error) },
      'proxy call failed',
    );
    throw new ApiError(502, 'proxy:provider_failed', describeProviderError(body.provider, error));
  }
});

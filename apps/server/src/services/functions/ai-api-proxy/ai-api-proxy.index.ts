import { messageFor } from '@chorus/shared/error-catalogue';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { prepareModelCall } from '../../../ai/model-call.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { aiApiProxyRoute } from './ai-api-proxy.routes.ts';

/** Spec §5: these providers are only reached through the provider selection, never a raw key. */
const noDirectCalls: ProviderId[] = ['openai', 'anthropic', 'gemini'];

export const aiApiProxyRouter = createRouter<AuthedEnv>().openapi(aiApiProxyRoute, async (c) => {
  const { deps, user } = c.var;
  const body = c.req.valid('json');
  if (body.apiKey?.trim() && noDirectCalls.includes(body.provider)) {
    throw new ApiError(
      400,
      'proxy:direct_call',
      messageFor('proxy:direct_call', { provider: providers[body.provider].name }),
    );
  }
  const call = await prepareModelCall(deps, {
    userId: user.id,
    source: 'proxy',
    provider: body.provider,
    model: body.model,
    explicitKey: body.apiKey,
  });
  const { text } = await call.generate({
    messages: body.messages,
    timeoutMs: body.timeout,
    signal: c.req.raw.signal,
    maxRetries: 1,
  });
  return c.json({ response: text }, 200);
});

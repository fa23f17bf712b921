/** DeepSeek at `/deepseek`: the AI SDK appends `/chat/completions` to the base URL, without `/v1`. */
import { runChat, runModelList, type Provider } from './engine.ts';
import { bearerToken } from './http.ts';
import { openAIChatDialect, openAIErrors, openAIModelList } from './openai-chat.ts';

const errors = openAIErrors({
  'missing-key': 'Authentication Fails, Your api key is missing',
  'invalid-key': 'Authentication Fails, Your api key is invalid',
  'rate-limit': 'Rate limit reached (simulated). Please pace your requests.',
  'server-error': 'Server error (simulated). Please retry your request after a brief wait.',
});

/** What DeepSeek answers when user and assistant messages do not alternate. */
export const deepSeekAlternatingError =
  'The model does not support successive user or assistant messages (messages[1] and messages[2] in your input). You should interleave the user/assistant messages in the message sequence.';

const chat = openAIChatDialect({
  label: 'DeepSeek',
  errors,
  alternatingError: deepSeekAlternatingError,
  streamUsage: 'finish-chunk',
  systemFingerprint: 'fp_sim',
  openaiFields: true,
  toolCallContent: '',
  usageExtra: (reply) => ({
    prompt_cache_hit_tokens: 0,
    prompt_cache_miss_tokens: reply.promptTokens,
    prompt_tokens_details: { cached_tokens: 0 },
  }),
});

export const deepSeekModels = ['deepseek-chat', 'deepseek-reasoner', 'deepseek-coder'] as const;

export const deepseek: Provider = {
  name: 'deepseek',
  prefix: '/deepseek',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: /^(?:\/v1)?\/chat\/completions$/,
      handle: (ctx) => runChat(ctx, chat, bearerToken(ctx.req)),
    },
    {
      method: 'GET',
      pattern: /^(?:\/v1)?\/models$/,
      handle: (ctx) =>
        runModelList(ctx, errors, bearerToken(ctx.req), (empty) =>
          openAIModelList(empty ? [] : deepSeekModels, 'deepseek'),
        ),
    },
  ],
};

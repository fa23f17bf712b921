/**
 * OpenAI at `/openai/v1`: chat completions (`openai.chat(…)`), the Responses API (`openai(…)`, the
 * AI SDK's default for OpenAI) and the model list.
 */
import { runChat, runModelList, type ChatDialect, type Provider } from './engine.ts';
import { asArray, asRecord, asString, bearerToken, type Frame, type Json } from './http.ts';
import { openAIChatDialect, openAIErrors, openAIModelList } from './openai-chat.ts';
import { textOf, type ChatInput, type Reply } from './script.ts';

const errors = openAIErrors({
  'missing-key':
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
  'invalid-key':
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
  'rate-limit': 'Rate limit reached for requests (simulated). Please try again in 1s.',
  'server-error': 'The server had an error while processing your request. Sorry about that!',
});

const chat = openAIChatDialect({
  label: 'OpenAI',
  errors,
  streamUsage: 'if-requested',
  systemFingerprint: 'fp_sim',
  openaiFields: true,
});

const parseResponsesInput = (body: unknown): ChatInput | string => {
  const b = asRecord(body);
  const model = asString(b?.model);
  if (!b || !model) return "Missing required parameter: 'model'.";
  const messages: ChatInput['messages'] = [];
  const instructions = asString(b.instructions);
  if (instructions) messages.push({ role: 'system', text: instructions });
  if (typeof b.input === 'string') messages.push({ role: 'user', text: b.input });
  else if (Array.isArray(b.input)) {
    for (const item of asArray(b.input)) {
      const role = asString(asRecord(item)?.role);
      if (role) messages.push({ role, text: textOf(asRecord(item)?.content) });
    }
  } else return "Missing required parameter: 'input'.";
  return { model, stream: b.stream === true, includeUsage: true, webSearch: false, messages };
};

const responsesUsage = (reply: Reply) => ({
  input_tokens: reply.promptTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: reply.completionTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: reply.promptTokens + reply.completionTokens,
});

const outputText = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });

const messageItem = (reply: Reply, status: 'in_progress' | 'completed') => ({
  id: `msg_${reply.id}`,
  type: 'message',
  status,
  role: 'assistant',
  content: status === 'completed' ? [outputText(reply.text)] : [],
});

const responseObject = (reply: Reply, status: 'in_progress' | 'completed') => ({
  id: `resp_${reply.id}`,
  object: 'response',
  created_at: reply.created,
  status,
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  model: reply.model,
  output: status === 'completed' ? [messageItem(reply, 'completed')] : [],
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: null, summary: null },
  store: true,
  temperature: 1,
  text: { format: { type: 'text' } },
  tool_choice: 'auto',
  tools: [],
  top_p: 1,
  truncation: 'disabled',
  usage: status === 'completed' ? responsesUsage(reply) : null,
  user: null,
  metadata: {},
});

/** The Responses API: typed SSE events (`event: response.output_text.delta`) with sequence numbers. */
const responses: ChatDialect = {
  label: 'OpenAI',
  errors,
  framing: 'sse',
  parse: parseResponsesInput,
  json: (reply) => responseObject(reply, 'completed'),
  stream: (reply) => {
    let sequence = 0;
    const itemId = `msg_${reply.id}`;
    const event = (type: string, fields: Json): Frame => ({
      event: type,
      data: { type, sequence_number: sequence++, ...fields },
    });
    const at = { item_id: itemId, output_index: 0, content_index: 0 };
    return {
      start: () => [
        event('response.created', { response: responseObject(reply, 'in_progress') }),
        event('response.in_progress', { response: responseObject(reply, 'in_progress') }),
        event('response.output_item.added', {
          output_index: 0,
          item: messageItem(reply, 'in_progress'),
        }),
        event('response.content_part.added', { ...at, part: outputText('') }),
      ],
      delta: (text) => [event('response.output_text.delta', { ...at, delta: text, logprobs: [] })],
      finish: () => [
        event('response.output_text.done', { ...at, text: reply.text, logprobs: [] }),
        event('response.content_part.done', { ...at, part: outputText(reply.text) }),
        event('response.output_item.done', {
          output_index: 0,
          item: messageItem(reply, 'completed'),
        }),
        event('response.completed', { response: responseObject(reply, 'completed') }),
      ],
    };
  },
};

export const openAIModels = [
  'gpt-5-2025-08-07',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o',
  'gpt-4o-mini',
  'o3',
  'o4-mini',
] as const;

export const openai: Provider = {
  name: 'openai',
  prefix: '/openai/v1',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: /^\/chat\/completions$/,
      handle: (ctx) => runChat(ctx, chat, bearerToken(ctx.req)),
    },
    {
      method: 'POST',
      pattern: /^\/responses$/,
      handle: (ctx) => runChat(ctx, responses, bearerToken(ctx.req)),
    },
    {
      method: 'GET',
      pattern: /^\/models$/,
      handle: (ctx) =>
        runModelList(ctx, errors, bearerToken(ctx.req), (empty) =>
          openAIModelList(empty ? [] : openAIModels, 'openai'),
        ),
    },
  ],
};

/**
 * OpenAI at `/openai/v1`: chat completions (`openai.chat(…)`), the Responses API (`openai(…)`, the
 * AI SDK's default for OpenAI) and the model list.
 */
import { openAIStyleEmbeddings, runEmbeddings } from './embeddings.ts';
import { runChat, runModelList, type ChatDialect, type Provider } from './engine.ts';
import { asArray, asRecord, asString, bearerToken, type Frame, type Json } from './http.ts';
import { openAIChatDialect, openAIErrors, openAIModelList } from './openai-chat.ts';
import {
  pieces,
  resultText,
  textOf,
  type ChatInput,
  type Reply,
  type ToolCall,
  type ToolDefinition,
} from './script.ts';

const errors = openAIErrors({
  'missing-key':
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
  'invalid-key':
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
  'rate-limit': 'Rate limit reached for requests (simulated). Please try again in 1s.',
  'server-error': 'The server had an error while processing your request. Sorry about that!',
});

/** OpenAI's answer to an input it cannot take: not text, an empty string, or more than 2048 items. */
const invalidInput =
  "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

const embeddings = openAIStyleEmbeddings({
  errors,
  defaultDimensions: 1536,
  maxInputs: { limit: 2048, body: errors.body('bad-request', 400, invalidInput) },
  dimensionsField: 'dimensions',
  invalidInput,
  rejectEmpty: true,
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
      const it = asRecord(item);
      const role = asString(it?.role);
      const name = asString(it?.name);
      if (role) messages.push({ role, text: textOf(it?.content) });
      else if (it?.type === 'function_call' && name) {
        const args = asString(it.arguments);
        messages.push({
          role: 'assistant',
          text: '',
          toolCalls: [{ id: asString(it.call_id), name, arguments: args }],
        });
      } else if (it?.type === 'function_call_output') {
        const output = Array.isArray(it.output) ? textOf(it.output) : resultText(it.output);
        messages.push({
          role: 'tool',
          text: output,
          toolResults: [{ id: asString(it.call_id), output }],
        });
      }
    }
  } else return "Missing required parameter: 'input'.";
  // The Responses API's tools are flat: `{type:'function', name, description, parameters}`.
  const tools = asArray(b.tools).flatMap((tool): ToolDefinition[] => {
    const t = asRecord(tool);
    const name = asString(t?.name);
    if (t?.type !== 'function' || !name) return [];
    return [{ name, description: asString(t.description), parameters: t.parameters }];
  });
  return {
    model,
    stream: b.stream === true,
    includeUsage: true,
    webSearch: false,
    tools,
    toolsDisabled: b.tool_choice === 'none',
    messages,
  };
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

const functionCallItem = (call: ToolCall, status: 'in_progress' | 'completed') => ({
  id: `fc_${call.id}`,
  type: 'function_call',
  status,
  arguments: status === 'completed' ? call.arguments : '',
  call_id: `call_${call.id}`,
  name: call.name,
});

const outputItems = (reply: Reply) =>
  reply.toolCalls.length > 0
    ? reply.toolCalls.map((call) => functionCallItem(call, 'completed'))
    : [messageItem(reply, 'completed')];

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
  output: status === 'completed' ? outputItems(reply) : [],
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
    const text = reply.toolCalls.length === 0;
    return {
      start: () => [
        event('response.created', { response: responseObject(reply, 'in_progress') }),
        event('response.in_progress', { response: responseObject(reply, 'in_progress') }),
        ...(text
          ? [
              event('response.output_item.added', {
                output_index: 0,
                item: messageItem(reply, 'in_progress'),
              }),
              event('response.content_part.added', { ...at, part: outputText('') }),
            ]
          : []),
      ],
      delta: (delta) => [event('response.output_text.delta', { ...at, delta, logprobs: [] })],
      toolCall: (call) => {
        const item = { item_id: `fc_${call.id}`, output_index: call.index };
        return [
          event('response.output_item.added', {
            output_index: call.index,
            item: functionCallItem(call, 'in_progress'),
          }),
          ...pieces(call.arguments).map((delta) =>
            event('response.function_call_arguments.delta', { ...item, delta }),
          ),
          event('response.function_call_arguments.done', { ...item, arguments: call.arguments }),
          event('response.output_item.done', {
            output_index: call.index,
            item: functionCallItem(call, 'completed'),
          }),
        ];
      },
      finish: () => [
        ...(text
          ? [
              event('response.output_text.done', { ...at, text: reply.text, logprobs: [] }),
              event('response.content_part.done', { ...at, part: outputText(reply.text) }),
              event('response.output_item.done', {
                output_index: 0,
                item: messageItem(reply, 'completed'),
              }),
            ]
          : []),
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
      method: 'POST',
      pattern: /^\/embeddings$/,
      handle: (ctx) => runEmbeddings(ctx, embeddings, bearerToken(ctx.req)),
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

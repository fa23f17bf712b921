/** The provider catalogue of spec §3 and the model rules of spec §5 and §9. */

export const providerIds = [
  'openai',
  'anthropic',
  'gemini',
  'deepseek',
  'mistral',
  'perplexity',
  'ollama',
  'openrouter',
] as const;
export type ProviderId = (typeof providerIds)[number];

export const isProviderId = (v: unknown): v is ProviderId =>
  typeof v === 'string' && (providerIds as readonly string[]).includes(v);

export type ModelOption = { value: string; label: string; description: string };

export type ProviderEntry = {
  id: ProviderId;
  name: string;
  description: string;
  /** A lucide icon name; the web maps it to a component. */
  icon: string;
  color: string;
  defaultModel: string;
  supportsWebSearch: boolean;
  models: ModelOption[];
  /** OpenRouter's list is fetched live from its /models endpoint. */
  dynamicModels?: boolean;
  /** Ollama runs locally and needs no key. */
  keyOptional?: boolean;
};

export const providers: Record<ProviderId, ProviderEntry> = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    description: 'GPT-5 and the o-series reasoning models.',
    icon: 'sparkles',
    color: '#10a37f',
    defaultModel: 'gpt-5-2025-08-07',
    supportsWebSearch: false,
    models: [
      { value: 'gpt-5-2025-08-07', label: 'GPT-5', description: 'Flagship model for complex work' },
      { value: 'gpt-5-mini', label: 'GPT-5 mini', description: 'Faster and cheaper GPT-5' },
      { value: 'gpt-5-nano', label: 'GPT-5 nano', description: 'Smallest, lowest latency GPT-5' },
      {
        value: 'gpt-4.1',
        label: 'GPT-4.1',
        description: 'Strong non-reasoning model, long context',
      },
      { value: 'o3', label: 'o3', description: 'Deep reasoning' },
      { value: 'o4-mini', label: 'o4-mini', description: 'Fast, affordable reasoning' },
      { value: 'gpt-4o-mini', label: 'GPT-4o mini', description: 'Small multimodal model' },
    ],
  },
  anthropic: {
    id: 'anthropic',
    name: 'Anthropic',
    description: 'Claude models: careful writing, coding and analysis.',
    icon: 'feather',
    color: '#d97757',
    defaultModel: 'claude-sonnet-4-5',
    supportsWebSearch: false,
    models: [
      {
        value: 'claude-sonnet-4-5',
        label: 'Claude Sonnet 4.5',
        description: 'Balanced intelligence and speed',
      },
      { value: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', description: 'Fastest Claude' },
      { value: 'claude-opus-4-1', label: 'Claude Opus 4.1', description: 'Most capable Claude' },
    ],
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini',
    description: "Google's Gemini models, with web search grounding.",
    icon: 'gem',
    color: '#4285f4',
    defaultModel: 'gemini-1.5-pro',
    supportsWebSearch: true,
    models: [
      {
        value: 'gemini-1.5-pro',
        label: 'Gemini 1.5 Pro',
        description: 'Long context, strong reasoning',
      },
      { value: 'gemini-1.5-flash', label: 'Gemini 1.5 Flash', description: 'Fast and efficient' },
      { value: 'gemini-pro', label: 'Gemini Pro', description: 'General purpose' },
    ],
  },
  deepseek: {
    id: 'deepseek',
    name: 'DeepSeek',
    description: 'DeepSeek chat and coder models.',
    icon: 'fish',
    color: '#4d6bfe',
    defaultModel: 'deepseek-coder',
    supportsWebSearch: false,
    models: [
      { value: 'deepseek-coder', label: 'DeepSeek Coder', description: 'Tuned for code' },
      { value: 'deepseek-chat', label: 'DeepSeek Chat', description: 'General conversation' },
    ],
  },
  mistral: {
    id: 'mistral',
    name: 'Mistral',
    description: "Mistral AI's open and commercial models.",
    icon: 'wind',
    color: '#fa520f',
    defaultModel: 'mistral-large-latest',
    supportsWebSearch: false,
    models: [
      { value: 'mistral-large-latest', label: 'Mistral Large', description: 'Top-tier reasoning' },
      { value: 'mistral-medium-latest', label: 'Mistral Medium', description: 'Balanced' },
      { value: 'mistral-small-latest', label: 'Mistral Small', description: 'Fast and low cost' },
    ],
  },
  perplexity: {
    id: 'perplexity',
    name: 'Perplexity',
    description: 'Answers grounded in live web search, with citations.',
    icon: 'search',
    color: '#20808d',
    defaultModel: 'sonar',
    supportsWebSearch: true,
    models: [
      { value: 'sonar', label: 'Sonar', description: 'Fast web-grounded answers' },
      { value: 'sonar-pro', label: 'Sonar Pro', description: 'Deeper search, more citations' },
      { value: 'sonar-reasoning', label: 'Sonar Reasoning', description: 'Reasoning with search' },
      {
        value: 'sonar-reasoning-pro',
        label: 'Sonar Reasoning Pro',
        description: 'Strongest reasoning with search',
      },
      {
        value: 'sonar-deep-research',
        label: 'Sonar Deep Research',
        description: 'Multi-step research reports',
      },
    ],
  },
  ollama: {
    id: 'ollama',
    name: 'Ollama',
    description: 'Open models running on your own machine.',
    icon: 'server',
    color: '#6b7280',
    defaultModel: 'llama2',
    supportsWebSearch: false,
    keyOptional: true,
    models: [
      { value: 'llama2', label: 'Llama 2', description: "Meta's general model" },
      { value: 'mistral', label: 'Mistral 7B', description: 'Small and capable' },
      { value: 'codellama', label: 'Code Llama', description: 'Tuned for code' },
    ],
  },
  openrouter: {
    id: 'openrouter',
    name: 'OpenRouter',
    description: 'Hundreds of models from many labs behind one key.',
    icon: 'route',
    color: '#6467f2',
    defaultModel: 'openrouter/auto',
    supportsWebSearch: false,
    dynamicModels: true,
    models: [
      { value: 'openrouter/auto', label: 'Auto', description: 'OpenRouter picks the best model' },
    ],
  },
};

/** Spec §3: the model selected when none is saved. */
export const fallbackSelectedModel: Record<ProviderId, string> = {
  openai: 'gpt-5-2025-08-07',
  anthropic: providers.anthropic.defaultModel,
  gemini: 'gemini-1.5-pro-002',
  deepseek: 'deepseek-chat',
  perplexity: 'sonar',
  mistral: 'mistral-large-latest',
  ollama: 'gpt-4o',
  openrouter: 'openrouter/auto',
};

/**
 * An Ollama model as its server names it (`/api/tags`): `name:tag`, e.g. `llama3.2:latest`. Ollama's
 * list is whatever its server has installed, so such a name counts as on the list.
 */
const ollamaTag = /^[a-z0-9][\w./-]*:[\w.-]+$/i;

/** Spec §5: a model not in the provider's list falls back to its default, except for openrouter. */
export const resolveModel = (provider: ProviderId, model: string | null | undefined): string => {
  const entry = providers[provider];
  const wanted = model?.trim();
  if (!wanted) return entry.defaultModel;
  if (entry.dynamicModels) return wanted;
  if (provider === 'ollama' && ollamaTag.test(wanted)) return wanted;
  return entry.models.some((m) => m.value === wanted) ? wanted : entry.defaultModel;
};

/** Spec §9. */
export const defaultTemperature: Record<ProviderId, number> = {
  openai: 0.7,
  anthropic: 0.7,
  mistral: 0.7,
  deepseek: 0.7,
  gemini: 0.9,
  perplexity: 0.2,
  ollama: 0.7,
  openrouter: 0.7,
};

export type EmbeddingModelOption = { value: string; label: string; dimensions: number };

/**
 * The providers with an embedding model, and the models Chorus offers for knowledge bases. The
 * others (Anthropic, DeepSeek, Perplexity, OpenRouter) have none of their own.
 */
export const embeddingModels: Partial<Record<ProviderId, EmbeddingModelOption[]>> = {
  openai: [
    { value: 'text-embedding-3-small', label: 'text-embedding-3-small', dimensions: 1536 },
    { value: 'text-embedding-3-large', label: 'text-embedding-3-large', dimensions: 3072 },
  ],
  gemini: [
    { value: 'gemini-embedding-001', label: 'Gemini Embedding', dimensions: 3072 },
    { value: 'text-embedding-004', label: 'text-embedding-004', dimensions: 768 },
  ],
  mistral: [{ value: 'mistral-embed', label: 'Mistral Embed', dimensions: 1024 }],
  ollama: [{ value: 'nomic-embed-text', label: 'nomic-embed-text', dimensions: 768 }],
};

export const embeddingProviderIds = Object.keys(embeddingModels) as ProviderId[];

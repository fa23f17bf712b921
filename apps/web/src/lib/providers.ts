/**
 * The eight AI providers as the web shows them (spec §3). The full catalogue with models
 * belongs in packages/shared once the chat area lands; this is only what the shell displays.
 */
export const aiProviders = [
  { id: 'openai', name: 'OpenAI', blurb: 'GPT-5, GPT-4.1, o3 and o4-mini' },
  { id: 'anthropic', name: 'Anthropic', blurb: 'Claude: Sonnet, Haiku and Opus' },
  { id: 'gemini', name: 'Google Gemini', blurb: 'Gemini Pro and Flash, with web search' },
  { id: 'deepseek', name: 'DeepSeek', blurb: 'DeepSeek Chat and DeepSeek Coder' },
  { id: 'mistral', name: 'Mistral', blurb: 'Mistral Large, Medium and Small' },
  { id: 'perplexity', name: 'Perplexity', blurb: 'Sonar models, with web search' },
  { id: 'ollama', name: 'Ollama', blurb: 'Local models: Llama 2, Mistral, Code Llama' },
  { id: 'openrouter', name: 'OpenRouter', blurb: 'Hundreds of models behind one key' },
] as const;

export type AiProviderId = (typeof aiProviders)[number]['id'];

export const defaultAiProvider: AiProviderId = 'openai';

export const isAiProviderId = (value: string | null | undefined): value is AiProviderId =>
  aiProviders.some((provider) => provider.id === value);

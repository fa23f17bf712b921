import { z } from 'zod';
import { keyMessages } from '../messages.ts';
import { providerIds, providers, type ProviderId } from '../providers.ts';

export const providerIdSchema = z.enum(providerIds, {
  error: `Unknown provider. Use one of: ${providerIds.join(', ')}`,
});

/** What the server says about a stored key: never the key, only a hint. */
export const apiKeySummarySchema = z.object({
  provider: providerIdSchema,
  key_hint: z.string(),
  model: z.string().nullable(),
  source: z.enum(['user', 'default', 'system']),
  updated_at: z.string(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

export const putApiKeySchema = z.object({
  api_key: z.string().max(500, 'An API key is at most 500 characters'),
  model: z.string().trim().max(200).nullable().optional(),
});

export const testApiKeySchema = z
  .object({
    provider: providerIdSchema,
    apiKey: z.string().max(500, 'An API key is at most 500 characters').default(''),
    /** Tests the caller's own saved key for the provider, opened on the server, instead of `apiKey`. */
    stored: z.boolean().optional(),
  })
  .refine((body) => !(body.stored && body.apiKey.trim() !== ''), {
    message: 'Send either a key to test or stored: true, not both.',
    path: ['stored'],
  });
export const testApiKeyResultSchema = z.object({ valid: z.boolean(), message: z.string() });
export type TestApiKeyResult = z.infer<typeof testApiKeyResultSchema>;

const keyPrefixes: Partial<Record<ProviderId, string>> = {
  openai: 'sk-',
  deepseek: 'sk-',
  perplexity: 'pplx-',
};

/** Spec §5's format rules; null when the key may be saved. Shared so the web says the same. */
export const apiKeyFormatError = (provider: ProviderId, key: string): string | null => {
  const name = providers[provider].name;
  if (key.trim() === '') return keyMessages.emptyKey(name);
  const prefix = keyPrefixes[provider];
  if (prefix && !key.trim().startsWith(prefix)) return keyMessages.mustStartWith(name, prefix);
  return null;
};

/** Where the key used for a provider comes from; `none` is a provider that needs no key (Ollama). */
export const keySourceSchema = z.enum(['user', 'default', 'system', 'none']);
export type KeySource = z.infer<typeof keySourceSchema>;

/** One provider as the signed-in user can use it: `source` null means no key is available. */
export const providerAvailabilitySchema = z.object({
  provider: providerIdSchema,
  enabled: z.boolean(),
  source: keySourceSchema.nullable(),
  key_hint: z.string().nullable(),
});
export type ProviderAvailability = z.infer<typeof providerAvailabilitySchema>;

export const providerRequestSchema = z.object({ provider: providerIdSchema });

/** get-default-api-key and get-system-api-key: `api_key` is the masked hint, never the key. */
export const adminKeyAvailabilitySchema = z.object({
  provider: providerIdSchema,
  available: z.boolean(),
  api_key: z.string().nullable(),
});
export type AdminKeyAvailability = z.infer<typeof adminKeyAvailabilitySchema>;

/** Ollama's models as its server lists them (`/api/tags`), or the catalogue's when it is out of reach. */
export const ollamaModelsSchema = z.object({
  models: z.array(z.object({ value: z.string(), label: z.string() })),
  source: z.enum(['server', 'catalogue']),
});
export type OllamaModels = z.infer<typeof ollamaModelsSchema>;

export const enabledProvidersSchema = z.object({ providers: z.array(providerIdSchema) });
export type EnabledProviders = z.infer<typeof enabledProvidersSchema>;

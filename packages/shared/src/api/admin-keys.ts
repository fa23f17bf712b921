import { z } from 'zod';
import { providerIdSchema, putApiKeySchema } from './keys.ts';

/** `system` keys back every user; `default` keys back the users they were granted to. */
export const adminKeyKinds = ['system', 'default'] as const;
export const adminKeyKindSchema = z.enum(adminKeyKinds, {
  error: `Unknown key kind. Use one of: ${adminKeyKinds.join(', ')}`,
});
export type AdminKeyKind = z.infer<typeof adminKeyKindSchema>;

/** An admin key as the back office sees it: masked, never the key. */
export const adminApiKeySummarySchema = z.object({
  provider: providerIdSchema,
  kind: adminKeyKindSchema,
  key_hint: z.string(),
  model: z.string().nullable(),
  updated_at: z.string(),
});
export type AdminApiKeySummary = z.infer<typeof adminApiKeySummarySchema>;

export const providerEnabledSchema = z.object({
  provider: providerIdSchema,
  enabled: z.boolean(),
});
export type ProviderEnabled = z.infer<typeof providerEnabledSchema>;

export const adminApiKeysResponseSchema = z.object({
  keys: z.array(adminApiKeySummarySchema),
  /** All eight providers, in catalogue order. */
  providers: z.array(providerEnabledSchema),
});
export type AdminApiKeysResponse = z.infer<typeof adminApiKeysResponseSchema>;

export const putAdminApiKeySchema = putApiKeySchema;

export const patchProviderSchema = z.object({ enabled: z.boolean() });

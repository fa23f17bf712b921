import { z } from 'zod';

export const roleCheckRequestSchema = z.object({ user_uuid: z.unknown() });
export const roleCheckResponseSchema = z.boolean();

export const copySystemKeysResponseSchema = z.object({
  copied: z.array(z.string()),
});
export type CopySystemKeysResponse = z.infer<typeof copySystemKeysResponseSchema>;

export const healthSchema = z.object({ status: z.literal('ok') });

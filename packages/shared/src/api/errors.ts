import { z } from 'zod';

/** Every API error body: a stable code for programs and a message for people. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

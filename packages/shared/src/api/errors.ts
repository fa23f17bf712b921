import { z } from 'zod';
import { errorCodes } from '../error-codes.ts';

/** Every API error body: a stable code for programs and a message for people. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.enum(errorCodes).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

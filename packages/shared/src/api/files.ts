import { z } from 'zod';
import { filePurposes, fileLinkTtlSeconds } from '../limits.ts';

export const filePurposeSchema = z.enum(filePurposes, {
  error: `The purpose is one of: ${filePurposes.join(', ')}`,
});

/** A stored file as `/storage/v1` answers it. `name` is for display only. */
export const fileSchema = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  /** Hex SHA-256 of the bytes, computed while they streamed in. */
  sha256: z.string(),
  purpose: filePurposeSchema,
  conversation_id: z.string().nullable(),
  created_at: z.string(),
});
export type StoredFile = z.infer<typeof fileSchema>;

export const filePageSchema = z.object({
  files: z.array(fileSchema),
  next_cursor: z.string().nullable(),
});
export type FilePage = z.infer<typeof filePageSchema>;

export const listFilesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque; the `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  purpose: filePurposeSchema.optional(),
  conversation_id: z.uuid('Not a conversation id').optional(),
});

/** `POST /storage/v1/files?purpose=&conversation_id=`: the body is the file itself. */
export const uploadFileQuerySchema = z.object({
  purpose: filePurposeSchema.default('attachment'),
  conversation_id: z.uuid('Not a conversation id').optional(),
});

export const createFileLinkSchema = z
  .object({
    /** Seconds the link stays valid. */
    expires_in: z
      .number()
      .int()
      .min(fileLinkTtlSeconds.min, `A link lives at least ${fileLinkTtlSeconds.min} seconds`)
      .max(fileLinkTtlSeconds.max, `A link lives at most ${fileLinkTtlSeconds.max} seconds`)
      .default(fileLinkTtlSeconds.default),
  })
  .strict();

export const fileLinkSchema = z.object({
  /** Absolute URL that streams the file without a session until `expires_at`. */
  url: z.string(),
  expires_at: z.string(),
});
export type FileLink = z.infer<typeof fileLinkSchema>;

/** What the signed-in user has stored and may still store. */
export const storageUsageSchema = z.object({
  plan_name: z.string(),
  used_bytes: z.number().int(),
  max_file_bytes: z.number().int(),
  storage_quota_bytes: z.number().int(),
  accepted_types: z.array(z.string()),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

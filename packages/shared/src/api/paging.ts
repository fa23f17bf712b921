import { z } from 'zod';

/** `?limit=&offset=` of the admin lists: 50 rows a page unless asked, at most 200. */
export const pageQueryFields = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

export const pageQuerySchema = z.object(pageQueryFields);

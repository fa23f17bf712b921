import { promptLimits, type Prompt, type PromptSharing } from '@chorus/shared/api/prompts';
import { messageFor } from '@chorus/shared/error-catalogue';
import { templateVariables } from '@chorus/shared/template';
import type { PromptRow } from '../../../db/repositories/prompts.ts';
import { ApiError } from '../../../http/errors.ts';

/** Someone else's prompt and a missing one look the same from outside. */
export const promptNotFound = () => new ApiError(404, 'prompts:not_found');

export const tooManyPrompts = () =>
  new ApiError(
    409,
    'prompts:too_many',
    messageFor('prompts:too_many', { max: promptLimits.perUser }),
  );

const sharingOf = (row: PromptRow): PromptSharing =>
  row.published ? 'published' : row.is_public ? 'submitted' : 'private';

export const toPrompt = (row: PromptRow): Prompt => ({
  id: row.id,
  title: row.title,
  content: row.content,
  description: row.description,
  category: row.category,
  tags: row.tags,
  favorite: row.favorite,
  variables: templateVariables(row.title, row.description, row.content),
  use_count: row.use_count,
  last_used_at: row.last_used_at?.toISOString() ?? null,
  version: row.version,
  sharing: sharingOf(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

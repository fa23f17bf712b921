import {
  createCustomAiSchema,
  type CreateCustomAi,
  type CustomAi,
} from '@chorus/shared/api/custom-ais';
import type { ProviderId } from '@chorus/shared/providers';
import type { PersonaDraft } from '@/components/persona/persona-fields';

/** The form's fields as typed: numbers stay text until sent, '' meaning the provider's default. */
export type CustomAiDraft = PersonaDraft & {
  topP: string;
  maxTokens: string;
  starters: string[];
};

export type DraftField = Exclude<keyof CustomAiDraft, 'starters'> | `starters.${number}`;

export type DraftErrors = Partial<Record<DraftField | 'starters', string>>;

const numberText = (value: number | null) => (value === null ? '' : String(value));

export const draftOf = (ai: CustomAi | null, provider: ProviderId): CustomAiDraft => ({
  name: ai?.name ?? '',
  avatar: ai?.avatar ?? '',
  description: ai?.description ?? '',
  instructions: ai?.system_prompt ?? '',
  provider: ai?.provider ?? provider,
  model: ai?.model ?? '',
  temperature: numberText(ai?.parameters.temperature ?? null),
  topP: numberText(ai?.parameters.top_p ?? null),
  maxTokens: numberText(ai?.parameters.max_tokens ?? null),
  starters: ai?.starters ?? [],
  knowledgeBaseIds: ai?.knowledge_base_ids ?? [],
});

/** Empty is the provider's default; text that is no number is sent as one that fails the check. */
const numberOf = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

const fieldOfPath: Record<string, DraftField> = {
  name: 'name',
  avatar: 'avatar',
  description: 'description',
  system_prompt: 'instructions',
  provider: 'provider',
  model: 'model',
  'parameters.temperature': 'temperature',
  'parameters.top_p': 'topP',
  'parameters.max_tokens': 'maxTokens',
  knowledge_base_ids: 'knowledgeBaseIds',
};

/** `kept`: where each starter sent stands among the draft's (blank ones are not sent). */
const fieldOf = (path: PropertyKey[], kept: number[]): DraftField | 'starters' => {
  if (path[0] === 'starters') {
    return typeof path[1] === 'number' ? `starters.${kept[path[1]] ?? path[1]}` : 'starters';
  }
  return fieldOfPath[path.slice(0, 2).join('.')] ?? fieldOfPath[String(path[0])] ?? 'name';
};

/**
 * The request body for the draft, checked against the contract in the browser first: the same
 * messages the server would give, shown beside each field. Blank starters are dropped.
 */
export const bodyOf = (
  draft: CustomAiDraft,
): { body: CreateCustomAi; errors: null } | { body: null; errors: DraftErrors } => {
  const kept = draft.starters.flatMap((starter, index) => (starter.trim() ? [index] : []));
  const starters = kept.map((index) => draft.starters[index]!);
  const parsed = createCustomAiSchema.safeParse({
    name: draft.name,
    avatar: draft.avatar,
    description: draft.description,
    system_prompt: draft.instructions,
    provider: draft.provider,
    model: draft.model.trim() === '' ? null : draft.model,
    parameters: {
      temperature: numberOf(draft.temperature),
      top_p: numberOf(draft.topP),
      max_tokens: numberOf(draft.maxTokens),
    },
    starters,
    knowledge_base_ids: draft.knowledgeBaseIds,
  });
  if (parsed.success) return { body: parsed.data, errors: null };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path, kept);
    errors[field] ??= issue.message;
  }
  return { body: null, errors };
};

import {
  agentLimits,
  createAgentSchema,
  type Agent,
  type AgentTool,
  type ApprovalPolicy,
  type CreateAgent,
} from '@chorus/shared/api/agents';
import type { ErrorCode } from '@chorus/shared/error-codes';
import type { ProviderId } from '@chorus/shared/providers';
import type { PersonaDraft } from '@/components/persona/persona-fields';

/** The form's fields as typed: numbers stay text until sent, '' meaning the default. */
export type AgentDraft = PersonaDraft & {
  maxSteps: string;
  tools: AgentTool[];
};

export type DraftField = keyof AgentDraft;

export type DraftErrors = Partial<Record<DraftField, string>>;

export const approvalLabels: Record<ApprovalPolicy, string> = {
  always: 'Always ask',
  once: 'Ask once per conversation and address',
  never: 'Never ask',
};

/**
 * What "once" covers (the server's agents/approval-scope.ts): a yes lets later calls in the same
 * conversation run without asking when they go to the same place.
 */
export const onceApprovalHint =
  'A yes covers later calls in the same conversation that go to the same place: a web fetch of the same site, an HTTP tool call with the same URL arguments, an MCP tool call with exactly the same arguments. Anything else asks again.';

/** A tool just ticked waits for the user's yes on every call until they say otherwise. */
export const defaultApproval: ApprovalPolicy = 'always';

export const draftOf = (agent: Agent | null, provider: ProviderId): AgentDraft => ({
  name: agent?.name ?? '',
  avatar: agent?.avatar ?? '',
  description: agent?.description ?? '',
  instructions: agent?.instructions ?? '',
  provider: agent?.provider ?? provider,
  model: agent?.model ?? '',
  temperature: agent && agent.temperature !== null ? String(agent.temperature) : '',
  maxSteps: String(agent?.max_steps ?? agentLimits.steps.default),
  tools: agent?.tools ?? [],
  knowledgeBaseIds: agent?.knowledge_base_ids ?? [],
});

/** Empty is the default; text that is no number is sent as one that fails the check. */
const numberOf = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

const fieldOfPath: Record<string, DraftField> = {
  name: 'name',
  avatar: 'avatar',
  description: 'description',
  instructions: 'instructions',
  provider: 'provider',
  model: 'model',
  temperature: 'temperature',
  max_steps: 'maxSteps',
  tools: 'tools',
  knowledge_base_ids: 'knowledgeBaseIds',
};

/** The server's refusals that are about one field. */
export const fieldOfErrorCode: Partial<Record<ErrorCode, DraftField>> = {
  'agents:handle_taken': 'name',
  'agents:unknown_tool': 'tools',
};

/**
 * The request body for the draft, checked against the contract in the browser first: the same
 * messages the server would give, shown beside each field.
 */
export const bodyOf = (
  draft: AgentDraft,
): { body: CreateAgent; errors: null } | { body: null; errors: DraftErrors } => {
  const maxSteps = numberOf(draft.maxSteps);
  const parsed = createAgentSchema.safeParse({
    name: draft.name,
    avatar: draft.avatar,
    description: draft.description,
    instructions: draft.instructions,
    provider: draft.provider,
    model: draft.model.trim() === '' ? null : draft.model,
    temperature: numberOf(draft.temperature),
    max_steps: maxSteps ?? agentLimits.steps.default,
    tools: draft.tools,
    knowledge_base_ids: draft.knowledgeBaseIds,
  });
  if (parsed.success) return { body: parsed.data, errors: null };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOfPath[String(issue.path[0])] ?? 'name';
    errors[field] ??= issue.message;
  }
  return { body: null, errors };
};

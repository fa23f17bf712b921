import type { Agent } from '@chorus/shared/api/agents';

export { plural } from '@/components/forms/card-list';
export { modelLabel } from '@/components/persona/persona-card';

/** The chat opens with the agent picked (the chat reads `agent`). */
export const chatWithPath = (agent: Pick<Agent, 'id'>) =>
  `/chat?agent=${encodeURIComponent(agent.id)}`;

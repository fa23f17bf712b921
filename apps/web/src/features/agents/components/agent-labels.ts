import type { Agent } from '@chorus/shared/api/agents';
import { providers } from '@chorus/shared/providers';

export const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "OpenAI · GPT-5 mini", or the provider's default model when none is set. */
export const modelLabel = (agent: Pick<Agent, 'provider' | 'model'>): string => {
  const entry = providers[agent.provider];
  const model = agent.model ?? entry.defaultModel;
  const label = entry.models.find((option) => option.value === model)?.label ?? model;
  return `${entry.name} · ${label}${agent.model === null ? ' (default)' : ''}`;
};

/** The chat opens with the agent picked (the chat reads `agent`). */
export const chatWithPath = (agent: Pick<Agent, 'id'>) =>
  `/chat?agent=${encodeURIComponent(agent.id)}`;

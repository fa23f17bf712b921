import type { ReactNode } from 'react';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';

/** "OpenAI · GPT-5 mini", or the provider's default model when none is set. */
export const modelLabel = (persona: { provider: ProviderId; model: string | null }): string => {
  const entry = providers[persona.provider];
  const model = persona.model ?? entry.defaultModel;
  const label = entry.models.find((option) => option.value === model)?.label ?? model;
  return `${entry.name} · ${label}${persona.model === null ? ' (default)' : ''}`;
};

/** The top of a custom AI's or an agent's card: its avatar and name, then what `children` add. */
export const PersonaCardHead = ({
  name,
  avatar,
  children,
}: {
  name: string;
  avatar: string;
  children: ReactNode;
}) => (
  <div className="flex items-start gap-3">
    <CustomAiAvatar name={name} avatar={avatar} />
    <div className="min-w-0 flex-1">
      <h2 className="font-medium break-words">{name}</h2>
      {children}
    </div>
  </div>
);

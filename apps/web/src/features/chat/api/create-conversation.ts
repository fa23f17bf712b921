import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';
import { prependConversation } from '@/lib/queries/conversations';

/** Spec-style title: the first line of the first message, at most 60 characters. */
export const titleFromText = (text: string): string => {
  const firstLine =
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? '';
  return firstLine.length > 60 ? `${firstLine.slice(0, 59).trimEnd()}…` : firstLine;
};

export const createConversation = (input: { title?: string; systemPrompt?: string } = {}) =>
  api.post<Conversation>('/rest/v1/conversations', {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.systemPrompt && { system_prompt: input.systemPrompt }),
  });

export const useCreateConversation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConversation,
    onSuccess: (conversation) => prependConversation(queryClient, conversation),
  });
};

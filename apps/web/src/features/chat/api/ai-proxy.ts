import { useMutation } from '@tanstack/react-query';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';

export type AiProxyInput = { provider: ProviderId; model: string; prompt: string };

/** Spec §7: one non-streaming call through the server, with the spec's 20 s timeout. */
export const callAiProxy = ({ provider, model, prompt }: AiProxyInput) =>
  api.post<{ response: string }>('/functions/v1/ai-api-proxy', {
    provider,
    model,
    messages: [{ role: 'user', content: prompt }],
    timeout: 20_000,
  });

export const useAiProxy = () => useMutation({ mutationFn: callAiProxy });

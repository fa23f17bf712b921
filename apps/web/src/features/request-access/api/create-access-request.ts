import { useMutation } from '@tanstack/react-query';
import type { CreateAccessRequest } from '@chorus/shared/api/access-requests';
import { api } from '@/lib/api-client';

export const createAccessRequest = (body: CreateAccessRequest) =>
  api.post<{ message: string }>('/rest/v1/access-requests', body);

export const useCreateAccessRequest = () => useMutation({ mutationFn: createAccessRequest });

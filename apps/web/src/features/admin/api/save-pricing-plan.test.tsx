import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLogsQueryKey } from './get-audit-logs';
import { pricingPlansQueryKey } from './get-pricing-plans';
import { adminUsersQueryKey } from './get-users';
import { useSavePricingPlan } from './save-pricing-plan';

afterEach(() => vi.unstubAllGlobals());

describe('useSavePricingPlan', () => {
  it('refreshes the plans, the users list that shows them, and the audit log after a save', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ id: 'p1', name: 'Team' })),
    );
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useSavePricingPlan(), { wrapper });

    result.current.mutate({ id: 'p1', plan: { name: 'Team' } });

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual(
      expect.arrayContaining([pricingPlansQueryKey, adminUsersQueryKey, auditLogsQueryKey]),
    );
  });
});

import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { sessionQueryKey } from '@/lib/session';
import { SessionExpirySync } from './session-expiry-sync';

const Failing = ({ status }: { status: number }) => {
  useQuery({
    queryKey: ['conversations'],
    queryFn: () => Promise.reject(new ApiError(status, 'refused')),
  });
  return null;
};

/** The app always watches its session (route guards, header); so does this test. */
const Session = ({ load }: { load: () => Promise<null> }) => {
  useQuery({ queryKey: sessionQueryKey, queryFn: load, staleTime: Infinity });
  return null;
};

const setup = (status: number) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const sessionFn = vi.fn(async () => null);
  client.setQueryData(sessionQueryKey, { user: { id: 'u1' } });
  render(
    <QueryClientProvider client={client}>
      <SessionExpirySync />
      <Session load={sessionFn} />
      <Failing status={status} />
    </QueryClientProvider>,
  );
  return { client, sessionFn };
};

describe('SessionExpirySync', () => {
  it('asks for the session again when a call is refused with 401', async () => {
    const { client, sessionFn } = setup(401);
    await waitFor(() => expect(sessionFn).toHaveBeenCalled());
    await waitFor(() => expect(client.getQueryData(sessionQueryKey)).toBeNull());
  });

  it('leaves the session alone on other failures', async () => {
    const { client, sessionFn } = setup(403);
    await waitFor(() => expect(client.getQueryState(['conversations'])?.status).toBe('error'));
    expect(sessionFn).not.toHaveBeenCalled();
  });
});

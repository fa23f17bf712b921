import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { auditMessages } from '@chorus/shared/admin-messages';
import type { AuditLogEntry } from '@chorus/shared/api/audit-logs';
import { AuditLogsPage } from './audit-logs-page';

const entry = (over: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: '6f1c2d3e-0000-4000-8000-000000000010',
  admin_id: 'admin-1',
  admin_email: 'ada@example.com',
  action: 'update_role',
  table_name: 'profiles',
  record_id: 'user-7',
  details: { role: 'admin' },
  posted_by_admin: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('AuditLogsPage', () => {
  it('marks an entry an admin posted as theirs, and leaves the ones Chorus wrote plain', async () => {
    const posted = entry({
      id: '6f1c2d3e-0000-4000-8000-000000000011',
      action: 'resend_email',
      table_name: 'email_outbox',
      posted_by_admin: true,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.startsWith('/rest/v1/admin/audit-logs')
          ? Response.json({
              entries: [posted, entry({})],
              total: 2,
              actions: ['resend_email', 'update_role'],
              tables: ['email_outbox', 'profiles'],
            })
          : Response.json({ users: [], total: 0 }),
      ),
    );
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <AuditLogsPage />
      </QueryClientProvider>,
    );
    const rows = await screen.findAllByRole('row');
    const postedRow = rows.find((r) => within(r).queryByText('resend_email'))!;
    const systemRow = rows.find((r) => within(r).queryByText('update_role'))!;
    expect(within(postedRow).getByText(auditMessages.postedBadge)).toBeTruthy();
    expect(within(postedRow).getByText(auditMessages.postedNote)).toBeTruthy();
    expect(within(systemRow).queryByText(auditMessages.postedBadge)).toBeNull();
  });
});

import { AppShell } from '../pages/app-shell.ts';
import { expect, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';

test('an admin sees the background queues, their schedules in words, and what failed', async ({
  browser,
}) => {
  const admin = await openAsSuperAdmin(browser, '/admin');
  await new AppShell(admin).areaLink('Back office', 'Background jobs').click();
  await expect(admin).toHaveURL(/\/admin\/jobs$/);
  await expect(admin.getByRole('heading', { name: 'Background jobs' })).toBeVisible();

  const queues = admin.getByRole('table', { name: 'Background queues' });
  const row = (title: string) => queues.getByRole('row').filter({ hasText: title });
  await expect(row('E-mail retries')).toContainText('When needed');
  await expect(row('Remove abandoned uploads')).toContainText('At 17 minutes past the hour (UTC)');
  await expect(row('Delete expired sessions and tokens')).toContainText('At 03:40 (UTC)');
  await expect(row('Remove abandoned uploads')).toContainText(/Next \w+/);
});

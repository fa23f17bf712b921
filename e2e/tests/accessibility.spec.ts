import { randomUUID } from 'node:crypto';
import { adminRoutes, publicRoutes, signedInRoutes } from '../../packages/shared/src/routes.ts';
import { AccessibilityAudit, type Finding } from '../pages/accessibility.ts';
import { expect, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { baseURL } from '../support/env.ts';

/**
 * Every route of the spec, as a guest, a signed-in user and an admin, in light and dark: one
 * <h1>, a <main>, and no serious or critical axe-core violation. One test, three browsers side
 * by side, so the suite pays for it once.
 */
test('every route has one heading, landmarks and no serious axe violation in either theme', async ({
  browser,
  page,
  signedInUser: _user,
}) => {
  test.setTimeout(240_000);
  const created = await page.request.post('/rest/v1/conversations', {
    data: { title: 'Accessibility check' },
    headers: { origin: baseURL() },
  });
  expect(created.status()).toBe(201);
  const { id: conversationId } = (await created.json()) as { id: string };
  const concrete = (route: string) =>
    route.replace(':chatId', conversationId).replace(/:\w+/g, () => randomUUID());

  // axe needs a page of a context made with newContext().
  const guest = await (
    await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() } })
  ).newPage();
  const admin = await openAsSuperAdmin(browser, '/admin');

  const sweep = async (audit: AccessibilityAudit, paths: readonly string[]) => {
    const findings: Finding[] = [];
    for (const path of paths) findings.push(...(await audit.audit(path)));
    return findings;
  };
  const findings = (
    await Promise.all([
      sweep(new AccessibilityAudit(guest), publicRoutes),
      sweep(new AccessibilityAudit(page), signedInRoutes.map(concrete)),
      sweep(new AccessibilityAudit(admin), adminRoutes),
    ])
  ).flat();

  expect(findings).toEqual([]);
  await guest.context().close();
  await admin.context().close();
});

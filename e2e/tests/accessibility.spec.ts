import { randomUUID } from 'node:crypto';
import { adminRoutes, publicRoutes, signedInRoutes } from '../../packages/shared/src/routes.ts';
import { AccessibilityAudit, type Finding } from '../pages/accessibility.ts';
import { expect, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { baseURL } from '../support/env.ts';

/** Half of a list, for two tests that share a sweep between the workers. */
const half = <T>(list: readonly T[], which: 0 | 1): T[] =>
  list.filter((_, index) => index % 2 === which);

/**
 * Every route of the spec, as a guest, a signed-in user and an admin, in light and dark: one
 * <h1>, a <main>, and no serious or critical axe-core violation. The sweep is split into tests
 * that the workers run side by side, so the longest of them, not their sum, is what the suite
 * waits for.
 */
test.describe('every route has one heading, landmarks and no serious axe violation in either theme', () => {
  const sweep = async (audit: AccessibilityAudit, paths: readonly string[]) => {
    const findings: Finding[] = [];
    for (const path of paths) findings.push(...(await audit.audit(path)));
    return findings;
  };

  test('as a guest, on the public routes', async ({ browser }) => {
    test.setTimeout(180_000);
    // axe needs a page of a context made with newContext().
    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
    });
    // The public routes of the spec, and one help article (/help/{slug}) as a sample of them all.
    const findings = await sweep(new AccessibilityAudit(await context.newPage()), [
      ...publicRoutes,
      '/help/keys-and-providers',
    ]);
    await context.close();
    expect(findings).toEqual([]);
  });

  for (const which of [0, 1] as const) {
    test(`as a signed-in user, on the workspace routes (part ${which + 1} of 2)`, async ({
      page,
      signedInUser: _user,
    }) => {
      test.setTimeout(180_000);
      const created = await page.request.post('/rest/v1/conversations', {
        data: { title: 'Accessibility check' },
        headers: { origin: baseURL() },
      });
      expect(created.status()).toBe(201);
      const { id: conversationId } = (await created.json()) as { id: string };
      const concrete = (route: string) =>
        route.replace(':chatId', conversationId).replace(/:\w+/g, () => randomUUID());
      const findings = await sweep(
        new AccessibilityAudit(page),
        half(signedInRoutes, which).map(concrete),
      );
      expect(findings).toEqual([]);
    });
  }

  test('as an admin, on the back-office routes', async ({ browser }) => {
    test.setTimeout(180_000);
    const admin = await openAsSuperAdmin(browser, '/admin');
    const findings = await sweep(new AccessibilityAudit(admin), adminRoutes);
    await admin.context().close();
    expect(findings).toEqual([]);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

type Operation = { 'x-access'?: string; tags?: string[] };
type Document = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Document;
let plain: Awaited<ReturnType<TestApp['user']>>;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  await t.user('rules-root@example.com');
  admin = await t.user('rules-admin@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  plain = await t.user('rules-plain@example.com');
  doc = (await t.client().get<Document>('/rest/v1/openapi.json')).body;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, access: op['x-access'] })),
  );

/** A concrete URL for a documented path: every parameter gets a well-formed value. */
const concrete = (path: string) =>
  path
    .replace('{provider}', 'openai')
    .replace('{kind}', 'system')
    .replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

/** Public on purpose: a route added here is a decision, not an accident. */
const publicRoutes = [
  'post /rest/v1/access-requests',
  'post /rest/v1/client-errors',
  'get /rest/v1/library/prompts',
  'get /rest/v1/library/scenarios',
  // The public directory and this instance's trends: published entries and aggregates only.
  'get /rest/v1/discover',
  'get /rest/v1/trends',
  // Which providers this instance offers (the home page shows it to guests).
  'post /functions/v1/get-enabled-providers',
  'post /rest/v1/rpc/is_admin',
  'post /rest/v1/rpc/is_super_admin',
  'get /rest/v1/signup-mode',
  'post /rest/v1/unsubscribe',
  'post /functions/v1/contact',
  'post /functions/v1/stripe-webhook',
  'get /storage/v1/object/{id}',
  // A read-only share link: its hashed token is the only key.
  'get /rest/v1/shared/{token}',
  // The embedded chat's iframe (issue 21): a server-minted visitor session, never a cookie.
  'get /widget/v1/{publicId}/config',
  'post /widget/v1/{publicId}/session',
  'get /widget/v1/{publicId}/conversations/{id}',
  'post /widget/v1/{publicId}/chat',
];

describe('every documented route has an access rule that holds', () => {
  it('declares public, user, admin or super_admin on every operation', () => {
    const undeclared = operations().filter(
      (o) => !['public', 'user', 'admin', 'super_admin'].includes(o.access ?? ''),
    );
    expect(undeclared.map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(operations().length).toBeGreaterThan(50);
  });

  it('keeps the public routes to the known list', () => {
    const open = operations()
      .filter((o) => o.access === 'public')
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(open).toEqual([...publicRoutes].sort());
  });

  it('refuses a guest on every route that needs a user, and a plain user on every admin route', async () => {
    const guest = t.client();
    const wrong: string[] = [];
    for (const { path, method, access } of operations()) {
      if (access === 'public') continue;
      const url = concrete(path);
      const asGuest = await guest.request(
        method.toUpperCase(),
        url,
        method === 'get' ? undefined : {},
      );
      if (asGuest.status !== 401) wrong.push(`${method} ${path} as a guest: ${asGuest.status}`);
      if (access === 'admin' || access === 'super_admin') {
        const asPlain = await plain.request(
          method.toUpperCase(),
          url,
          method === 'get' ? undefined : {},
        );
        if (asPlain.status !== 403) wrong.push(`${method} ${path} as a user: ${asPlain.status}`);
      }
      if (access === 'super_admin') {
        const asAdmin = await admin.request(
          method.toUpperCase(),
          url,
          method === 'get' ? undefined : {},
        );
        if (asAdmin.status !== 403) wrong.push(`${method} ${path} as an admin: ${asAdmin.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

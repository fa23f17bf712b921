import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type OpenApiDocument = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, unknown>>;
};

describe('the app shell', () => {
  it('answers the health check', async () => {
    const res = await t.client().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok', realtime: 'off' });
  });

  it('publishes an OpenAPI 3.1 document of every endpoint', async () => {
    const res = await t.client().get<OpenApiDocument>('/rest/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/rest/v1/profile',
        '/rest/v1/rpc/is_admin',
        '/rest/v1/rpc/is_super_admin',
        '/functions/v1/copy-system-api-keys',
      ]),
    );
  });

  it('answers an unknown API path with a JSON 404', async () => {
    for (const path of ['/rest/v1/nope', '/functions/v1/nope', '/storage/v1/x', '/nope']) {
      const res = await t.client().get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body, path).toEqual({ error: expect.any(String), code: 'http:not_found' });
    }
  });

  it('refuses a body over 1 MB with a JSON 413', async () => {
    const ann = await t.user('too-large@example.com');
    const huge = JSON.stringify({ full_name: 'x'.repeat(1024 * 1024 + 10) });
    for (const caller of [ann, t.client()]) {
      const res = await caller.request('PATCH', '/rest/v1/profile', huge);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: expect.any(String), code: 'request:too_large' });
    }
    const auth = await t.client().request('POST', '/auth/v1/sign-in/email', huge);
    expect(auth.status).toBe(413);
  });

  it('sends the security headers', async () => {
    for (const path of ['/healthz', '/rest/v1/profile', '/auth/v1/get-session']) {
      const res = await t.client().get(path);
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });
});

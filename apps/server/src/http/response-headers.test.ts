import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleMessages } from '@chorus/shared/messages';
import { startTestApp, type TestApp } from '../test/harness.ts';

// Issue 13, point 9: personal answers are not cached; HSTS only where the app is on https;
// a name has a length limit.

let plain: TestApp;
let secure: TestApp;
beforeAll(async () => {
  plain = await startTestApp();
  secure = await startTestApp({ env: { APP_URL: 'https://chorus.example' } });
});
afterAll(async () => {
  await plain.close();
  await secure.close();
});

describe('response headers', () => {
  it('keep API answers out of every cache, the session check included', async () => {
    const ann = await plain.user('headers-ann@example.com');
    for (const url of ['/rest/v1/profile', '/rest/v1/conversations', '/auth/v1/get-session']) {
      const res = await ann.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toMatch(/no-store/);
    }
  });

  it('send Strict-Transport-Security only when the app is served over https', async () => {
    expect((await plain.client().get('/healthz')).headers.get('strict-transport-security')).toBe(
      null,
    );
    const res = await secure.app.request('/healthz');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});

describe('sign-up', () => {
  it('refuses a name longer than 100 characters', async () => {
    const res = await plain
      .client()
      .signUp('long-name@example.com', 'correct-horse-1', 'n'.repeat(101));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: peopleMessages.nameTooLong(100) });
    const ok = await plain
      .client()
      .signUp('fine-name@example.com', 'correct-horse-1', 'n'.repeat(100));
    expect(ok.status).toBe(200);
  });
});

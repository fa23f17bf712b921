import { expect, type APIRequestContext } from '@playwright/test';
import { baseURL } from './env.ts';
import type { TestUser } from './users.ts';

export type SignedUpUser = TestUser & { id: string };

/**
 * Signs `user` up through the auth API, as the sign-up form does, on `request`: a browser
 * context's `context.request` keeps the session cookie for that context's pages. For tests whose
 * subject is not signing up; the sign-up form itself has its own tests.
 */
export const signUpThroughApi = async (
  request: APIRequestContext,
  user: TestUser,
): Promise<SignedUpUser> => {
  const res = await request.post('/auth/v1/sign-up/email', {
    data: user,
    headers: { origin: baseURL() },
  });
  expect(res.status(), `sign-up of ${user.email}: ${await res.text()}`).toBe(200);
  const body = (await res.json()) as { user: { id: string } };
  return { ...user, id: body.user.id };
};

/** Signs in through the auth API on `request` (see signUpThroughApi). */
export const signInThroughApi = async (
  request: APIRequestContext,
  user: Pick<TestUser, 'email' | 'password'>,
) => {
  const res = await request.post('/auth/v1/sign-in/email', {
    data: { email: user.email, password: user.password },
    headers: { origin: baseURL() },
  });
  expect(res.status(), `sign-in of ${user.email}: ${await res.text()}`).toBe(200);
};

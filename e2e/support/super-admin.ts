import { expect, request, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { signInThroughApi } from './accounts.ts';
import { uniqueClientIp } from './client-ip.ts';
import { baseURL } from './env.ts';
import type { TestUser } from './users.ts';

/** Where global setup leaves the throwaway first account (the super admin) for the workers. */
export const superAdminEnv = {
  email: 'E2E_SUPER_ADMIN_EMAIL',
  password: 'E2E_SUPER_ADMIN_PASSWORD',
} as const;

/** The first account of this run, a super admin, created in global setup. */
export const superAdmin = (): Omit<TestUser, 'name'> => {
  const email = process.env[superAdminEnv.email];
  const password = process.env[superAdminEnv.password];
  if (!email || !password) {
    throw new Error(`Global setup did not set ${superAdminEnv.email} / ${superAdminEnv.password}`);
  }
  return { email, password };
};

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

/** The super admin's signed-in cookies, made once per worker through the auth API. */
let adminState: Promise<StorageState> | undefined;
const signedInAdmin = () =>
  (adminState ??= (async () => {
    const api = await request.newContext({
      baseURL: baseURL(),
      extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
    });
    try {
      await signInThroughApi(api, superAdmin());
      return await api.storageState();
    } finally {
      await api.dispose();
    }
  })());

/**
 * A second browser (its own cookies and client address) signed in as the run's super admin and
 * left on `path`. The session comes from the auth API, not the sign-in form (that has tests of its
 * own). The caller closes its context.
 */
export const openAsSuperAdmin = async (browser: Browser, path: string): Promise<Page> => {
  const context = await browser.newContext({
    storageState: await signedInAdmin(),
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
  });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page).toHaveURL((url) => url.pathname === path);
  return page;
};

/**
 * The REST API as the run's super admin (its own client address), for set-up and clean-up that
 * is not the subject of a test. The caller disposes of it.
 */
export const superAdminRequest = async (): Promise<APIRequestContext> =>
  request.newContext({
    baseURL: baseURL(),
    storageState: await signedInAdmin(),
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp(), origin: baseURL() },
  });

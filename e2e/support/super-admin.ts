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

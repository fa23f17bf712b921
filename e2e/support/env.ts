import { freePortSync } from './ports.ts';

/**
 * The ports of this run, chosen once in the runner process and handed to global setup and
 * to the workers through the environment (workers inherit it, so they see the same values).
 */
export const ensureRunPorts = () => {
  process.env.E2E_APP_PORT ??= String(freePortSync());
  process.env.E2E_SMTP_PORT ??= String(freePortSync());
  process.env.E2E_BASE_URL ??= `http://localhost:${process.env.E2E_APP_PORT}`;
  return {
    appPort: Number(process.env.E2E_APP_PORT),
    smtpPort: Number(process.env.E2E_SMTP_PORT),
    baseURL: process.env.E2E_BASE_URL,
  };
};

export const baseURL = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set; run the tests through playwright.config.ts');
  return url;
};

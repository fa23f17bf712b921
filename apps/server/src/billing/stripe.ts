import Stripe from 'stripe';
import type { Config } from '../config.ts';
import { ApiError } from '../http/errors.ts';

export type StripeSettings = NonNullable<Config['stripe']>;

const clients = new WeakMap<StripeSettings, Stripe>();

/**
 * The Stripe client for the configured keys. STRIPE_API_URL points it at another host speaking
 * Stripe's API (a local stand-in in tests); the client and its wire format stay Stripe's own.
 */
export const stripeClient = (settings: StripeSettings): Stripe => {
  let client = clients.get(settings);
  if (!client) {
    const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Chorus' },
      ...(api && {
        host: api.hostname,
        port: api.port || (api.protocol === 'https:' ? 443 : 80),
        protocol: api.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    clients.set(settings, client);
  }
  return client;
};

/** Stripe settings, or the refusal the spec'd fallback gives: admins assign plans. */
export const requireStripe = (config: Config): StripeSettings => {
  if (!config.stripe) {
    throw new ApiError(404, 'billing:not_configured');
  }
  return config.stripe;
};

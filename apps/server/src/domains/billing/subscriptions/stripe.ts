import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { BillingConfig } from '../../../config.js';
import { ApiError } from '../../../http/errors.js';

export const BILLING_NOT_CONFIGURED =
  'Billing is not configured on this server: its operator sets CUMULUS_STRIPE_SECRET_KEY to take payments. Limits and usage work without it.';

const clients = new WeakMap<BillingConfig, Stripe>();

// Loaded when a configuration first takes payments, not at every start (a server without Stripe
// never needs the package's 200-odd modules).
const require = createRequire(import.meta.url);
const stripeClass = () => require('stripe') as typeof Stripe;

/** The official Stripe client for this configuration (pointed at CUMULUS_STRIPE_API_URL when set), or null. */
export function stripeOf(billing: BillingConfig): Stripe | null {
  if (!billing.stripeSecretKey) return null;
  let client = clients.get(billing);
  if (!client) {
    const url = billing.stripeApiUrl ? new URL(billing.stripeApiUrl) : null;
    const StripeClient = stripeClass();
    client = new StripeClient(billing.stripeSecretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Cumulus' },
      ...(url && {
        host: url.hostname,
        port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        protocol: url.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    clients.set(billing, client);
  }
  return client;
}

/** The Stripe client, or a 400 saying billing is not configured. */
export function requireStripe(billing: BillingConfig): Stripe {
  const stripe = stripeOf(billing);
  if (!stripe) throw new ApiError(400, { detail: BILLING_NOT_CONFIGURED, code: 'BILLING_NOT_CONFIGURED' });
  return stripe;
}

/** A Stripe failure as the user's 502, with Stripe's own message. */
export function stripeFailure(err: unknown): ApiError {
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(502, { detail: `Stripe answered: ${message}`, code: 'STRIPE_ERROR' });
}

/** Runs a Stripe call, turning its failure into a readable 502. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeFailure(err);
  }
}

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for api.stripe.com speaking its HTTP API for the calls Cumulus makes
 * (form-encoded requests with bracketed keys, JSON answers, Stripe's error shape), so tests run the
 * official `stripe` client end to end without reaching Stripe. It also makes the events Stripe
 * would send, signed with the package's own test-header helper.
 */
type Json = Record<string, unknown>;
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** `a[b][0][c]=v` → { a: { b: [{ c: 'v' }] } }, as Stripe reads its form bodies and queries. */
export function decodeForm(text: string): Json {
  const out: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = rawKey.replace(/\]/g, '').split('[');
    let node: Json | unknown[] = out;
    path.forEach((key, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const container = node as Record<string, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= nextIsIndex ? [] : {};
        node = container[key] as Json;
      }
    });
  }
  return out;
}

export class StripeFake {
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly invoices: Json[] = [];
  readonly paymentMethods: Json[] = [];
  /** Every call as "METHOD /path", in order. */
  readonly calls: string[] = [];
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  private server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** What the server's environment needs to use this fake. */
  env(): Record<string, string> {
    return {
      CUMULUS_STRIPE_SECRET_KEY: 'sk_test_cumulus_fake',
      CUMULUS_STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      CUMULUS_STRIPE_API_URL: this.url,
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const body = decodeForm(Buffer.concat(chunks).toString('utf8'));
    const query = decodeForm(url.search.slice(1));
    this.calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== 'Bearer sk_test_cumulus_fake')
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    const missing = (what: string) =>
      send(404, {
        error: { type: 'invalid_request_error', message: `No such ${what}`, code: 'resource_missing' },
      });
    const list = (data: Json[]) => send(200, { object: 'list', data, has_more: false, url: url.pathname });
    const parts = url.pathname.split('/').filter(Boolean);
    const route = `${req.method} /${parts.slice(1, 3).join('/')}`;
    const [, , second, third] = parts;
    switch (true) {
      case route === 'POST /customers' && !second: {
        const customer = {
          id: newId('cus'),
          object: 'customer',
          name: body.name ?? null,
          email: body.email ?? null,
          metadata: body.metadata ?? {},
          address: null,
          invoice_settings: { default_payment_method: null },
        };
        this.customers.set(customer.id, customer);
        return send(200, customer);
      }
      case req.method === 'GET' && parts[1] === 'customers' && !!second: {
        const customer = this.customers.get(second!);
        if (!customer) return missing(`customer: '${second}'`);
        const settings = customer.invoice_settings as Json;
        const expand = (query.expand as string[] | undefined) ?? [];
        const method = settings.default_payment_method as string | null;
        return send(200, {
          ...customer,
          invoice_settings: {
            default_payment_method:
              method && expand.includes('invoice_settings.default_payment_method')
                ? this.paymentMethods.find((p) => p.id === method)
                : method,
          },
        });
      }
      case req.method === 'POST' && parts[1] === 'checkout' && second === 'sessions': {
        const session = {
          id: newId('cs_test'),
          object: 'checkout.session',
          mode: body.mode,
          customer: body.customer,
          client_reference_id: body.client_reference_id ?? null,
          metadata: body.metadata ?? {},
          subscription_data: body.subscription_data ?? {},
          line_items: body.line_items,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          status: 'open',
          subscription: null,
        };
        this.sessions.set(session.id, session);
        return send(200, { ...session, url: `https://checkout.stripe.test/c/pay/${session.id}` });
      }
      case req.method === 'POST' && parts[1] === 'billing_portal': {
        if (!this.customers.has(body.customer as string)) return missing(`customer: '${body.customer}'`);
        return send(200, {
          id: newId('bps'),
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url,
          url: `https://billing.stripe.test/p/session/${newId('test')}`,
        });
      }
      case parts[1] === 'subscriptions' && !!second && req.method === 'GET': {
        const sub = this.subscriptions.get(second!);
        return sub ? send(200, sub) : missing(`subscription: '${second}'`);
      }
      case parts[1] === 'subscriptions' && !!second && req.method === 'DELETE': {
        // Cancel now; Stripe refuses to cancel what has ended.
        const sub = this.subscriptions.get(second!);
        if (!sub) return missing(`subscription: '${second}'`);
        if (sub.status === 'canceled')
          return send(400, {
            error: { type: 'invalid_request_error', message: 'This subscription is already canceled.' },
          });
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now(), cancel_at: null });
        return send(200, sub);
      }
      case parts[1] === 'subscriptions' && !!second && req.method === 'POST': {
        const sub = this.subscriptions.get(second!);
        if (!sub) return missing(`subscription: '${second}'`);
        if (body.cancel_at_period_end !== undefined) {
          const atEnd = body.cancel_at_period_end === 'true';
          sub.cancel_at_period_end = atEnd;
          sub.cancel_at = atEnd ? this.periodEnd(sub) : null;
        }
        return send(200, sub);
      }
      case req.method === 'GET' && parts[1] === 'payment_methods':
        return list(this.paymentMethods.filter((p) => p.customer === query.customer));
      case req.method === 'GET' && parts[1] === 'invoices' && !second:
        return list(this.invoices.filter((i) => i.customer === query.customer));
      case req.method === 'POST' && parts[1] === 'invoices' && second === 'create_preview': {
        const sub = this.subscriptions.get(body.subscription as string);
        if (!sub) return missing(`subscription: '${body.subscription}'`);
        const start = now();
        return send(200, {
          object: 'invoice',
          customer: body.customer,
          amount_due: 4900,
          currency: 'usd',
          period_start: start,
          period_end: this.periodEnd(sub),
          next_payment_attempt: this.periodEnd(sub),
          lines: {
            object: 'list',
            data: [{ description: 'Cumulus Professional', amount: 4900 }],
            has_more: false,
          },
        });
      }
    }
    void third;
    return send(404, {
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      },
    });
  }

  private periodEnd(sub: Json): number {
    return ((sub.items as { data: Json[] }).data[0]!.current_period_end as number) ?? now();
  }

  /** The customer finishes the checkout: a subscription starts; answers the event Stripe sends. */
  completeCheckout(sessionId: string, status = 'active'): Stripe.Event {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const subscription = {
      id: newId('sub'),
      object: 'subscription',
      created: now(),
      customer: session.customer,
      status,
      metadata: (session.subscription_data as Json).metadata ?? {},
      cancel_at: null,
      cancel_at_period_end: false,
      trial_end: null,
      items: {
        object: 'list',
        data: [{ id: newId('si'), current_period_start: now(), current_period_end: now() + 30 * 86_400 }],
      },
    };
    this.subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', subscription: subscription.id });
    return this.event('checkout.session.completed', session);
  }

  /** Stripe changes a subscription (status, cancellation...): answers the event it sends. */
  updateSubscription(id: string, changes: Json, type = 'customer.subscription.updated'): Stripe.Event {
    const sub = this.subscriptions.get(id)!;
    Object.assign(sub, changes);
    return this.event(type, sub);
  }

  /** A card on file for the customer, made its default. */
  addCard(customer: string, last4 = '4242'): void {
    const method = {
      id: newId('pm'),
      object: 'payment_method',
      customer,
      type: 'card',
      card: { brand: 'visa', last4, exp_month: 12, exp_year: 2030 },
    };
    this.paymentMethods.push(method);
    ((this.customers.get(customer)!.invoice_settings as Json).default_payment_method as unknown) = method.id;
  }

  /** An invoice of the customer; answers the invoice.paid (or payment_failed) event. */
  addInvoice(customer: string, cents: number, paid = true): Stripe.Event {
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      number: `CUM-${this.invoices.length + 1}`,
      customer,
      status: paid ? 'paid' : 'open',
      amount_due: cents,
      amount_paid: paid ? cents : 0,
      currency: 'usd',
      created: now(),
      period_start: now() - 30 * 86_400,
      period_end: now(),
      hosted_invoice_url: `https://invoice.stripe.test/i/${newId('test')}`,
      metadata: {},
    };
    this.invoices.push(invoice);
    return this.event(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice);
  }

  event(type: string, object: Json): Stripe.Event {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    } as unknown as Stripe.Event;
  }

  /** The event's body and a Stripe-Signature header for it (timestamp in seconds, default now). */
  sign(event: Stripe.Event, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
    });
    return { payload, header };
  }
}

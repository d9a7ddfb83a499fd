// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// billing: what compute costs and who pays (the console's Billing and Usage): plans (an
// organization's tier and the limits that come with it, plans/), prices and VM types, usage
// metering, the limits that stop clusters, Stripe subscriptions and billing events.
// Above identity, clusters and batch. Other domains import this file only.

// Its face to the assembly: routes, loops (metering and the limits that act), its tables.
export { billingModule } from './module.js';
// The meter's rows, made at start-up.
export { ensureMeter } from './usage/meter.js';

// What identity and clusters ask of billing's plans (IdentityPorts.plans, handed in by server.ts).
export { planPort } from './plans/port.js';
// What identity shows of how an organization pays (IdentityPorts.billing, handed in by server.ts).
export { billingPort } from './organization-billing.js';

// What clusters ask of billing (their ClusterPorts, handed in by server.ts).
export { assertWithinCreditLimits } from './usage/limits.js';

// VM types: machine shapes and prices.

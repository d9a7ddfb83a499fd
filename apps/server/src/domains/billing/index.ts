// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// billing: what compute costs and who pays (the console's Billing and Usage): prices and VM
// types, usage metering, the limits that stop clusters, Stripe subscriptions and billing events.
// Above identity, clusters and batch. Other domains import this file only.

// Routes.
export { registerPricingRoutes } from './pricing/routes.js';
export { registerVmTypeRoutes } from './pricing/vm-type-routes.js';
export { registerSubscriptionRoutes } from './subscriptions/routes.js';
export { registerUsageRoutes } from './usage/routes.js';

// Loops: metering and the limits that act.
export { ensureMeter, meterDomain, pruneUsage } from './usage/meter.js';
export { limitsDomain } from './usage/limits.js';

// What clusters ask of billing (their ClusterPorts, handed in by server.ts).
export { assertWithinCreditLimits } from './usage/limits.js';

// VM types: machine shapes and prices.

// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// onboarding: what users did and have yet to do, and what the console tells them: interactions
// (the client's and the console's reports, and what staff read of them), flags and the get-started
// checklist, the setup flags of a cloud setup, banners. Above identity, whose read model it joins
// (users, workspaces, organizations) and whose tokens tick its flags through IdentityPorts.onboarding.
// Other domains import this file only.

// Its face to the assembly: routes, its tables.
export { onboardingModule } from './module.js';
// Reference rows every install has, made at start-up.
export { seedInteractionTypes } from './service.js';

// What users did: milestones other domains tick.
export { recordClientUsed, recordComputed, setFlag } from './service.js';
export { recordCloudSetupComplete } from './setup-flags.js';

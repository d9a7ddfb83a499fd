export * from './auth.js';
export * from './clusters.js';
export * from './groups.js';
export * from './interactions.js';
export * from './invites.js';
export * from './mail.js';
export * from './organizations.js';
export * from './users.js';

import type { Flags } from '@/data/interactions/flags-query';

// The Get Started checklist: each step ticks itself from what the
// server records — the interaction flags, and the checklist's own `data` for what no flag covers.

export type StepId = 'install' | 'sign-in' | 'cluster' | 'compute' | 'cloud';

export type Step = { id: StepId; done: boolean; optional: boolean };

/**
 * What the checklist's data holds: `installed` (the user says so), `computed` and `client` (the
 * server saw a computation, or the Python client itself: `cumulus login`, or a report with its version).
 */
export type ChecklistData = { installed?: unknown; computed?: unknown; client?: unknown };

/** The cluster the first computation ran on, when the server recorded one. */
export function computedOn(data: ChecklistData): number | null {
  const computed = data.computed as { clusterId?: unknown } | null | undefined;
  return typeof computed?.clusterId === 'number' ? computed.clusterId : null;
}

export function checklist(flags: Flags, data: ChecklistData): Step[] {
  const signedIn = flags['has-api-key'] === true;
  const created = flags['has-created-cluster'] === true;
  const computed = Boolean(data.computed);
  return [
    // Ticked only when the client was really used (or the user says so): a token made on the
    // Profile page says nothing about an installed client.
    { id: 'install', done: data.installed === true || Boolean(data.client) || computed, optional: false },
    { id: 'sign-in', done: signedIn, optional: false },
    { id: 'cluster', done: created, optional: false },
    { id: 'compute', done: computed, optional: false },
    // Set by the server when a workspace's cloud setup completes: the user's own, or one they use.
    {
      id: 'cloud',
      done:
        flags['completed-setup-once'] === true || flags['access-to-account-with-completed-setup'] === true,
      optional: true,
    },
  ];
}

/** Every step that is not optional is done. */
export const isComplete = (steps: Step[]) => steps.every((step) => step.optional || step.done);

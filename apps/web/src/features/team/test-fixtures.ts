// Wire-shaped answers of the Team calls, for component tests (the stub stands in for the server).

import { deploymentAnswer } from '@/test/deployment';

export const ORG_ID = 7;
export const ME = 1;

export const person = (id: number, username: string, fullName = '') => ({
  id,
  username,
  full_name: fullName,
  preferred_name: '',
  profile: { avatar_url: null },
});

export function organization(overrides: Record<string, unknown> = {}) {
  return {
    id: ORG_ID,
    name: 'Acme',
    is_personal: false,
    feature_tier: 'free',
    member_limit: null,
    workspace_limit: null,
    seat_limit: null,
    created: '2026-01-01T00:00:00+00:00',
    member_set: [
      { id: 100, user: person(ME, 'ada', 'Ada Lovelace'), role: 'admin' },
      { id: 101, user: person(2, 'bob', 'Bob Babbage'), role: 'member' },
    ],
    custom_groups: [],
    member_count: 2,
    pending_invite_count: 1,
    workspace_count: 1,
    ...overrides,
  };
}

export function workspace(id: number, name: string, members: Array<[number, string, boolean]> = []) {
  return {
    id,
    slug: name,
    name,
    avatar_url: null,
    active: true,
    can_use_cumulus_hosted: true,
    organization: { id: ORG_ID, name: 'Acme', is_personal: false },
    credit_limit: null,
    created: '2026-01-01T00:00:00+00:00',
    membership_set: members.map(([userId, username, isAdmin], index) => ({
      id: id * 100 + index,
      user: person(userId, username),
      workspace_id: id,
      is_admin: isAdmin,
      core_limit: 1000,
      credit_limit: 100000,
    })),
  };
}

export function member(
  id: number,
  userId: number,
  username: string,
  role: 'admin' | 'member',
  workspaceIds: number[],
  admin = false,
) {
  return {
    id,
    user: person(userId, username),
    role,
    organization_id: ORG_ID,
    organization: { id: ORG_ID, name: 'Acme', is_personal: false },
    workspace_memberships: workspaceIds.map((workspaceId, index) => ({
      id: id * 10 + index,
      workspace_id: workspaceId,
      is_admin: admin,
      credit_limit: 100000,
      core_limit: 1000,
    })),
    displayed_pro_trial_expiration: null,
  };
}

export function invite(
  id: number,
  email: string,
  workspaceIds: number[],
  overrides: Record<string, unknown> = {},
) {
  return {
    id,
    expiration: '2099-01-01T00:00:00+00:00',
    expired: false,
    organization_id: ORG_ID,
    role: 'member',
    invite: { email, created: '2026-01-01T00:00:00+00:00' },
    workspace_invites: workspaceIds.map((workspaceId, index) => ({
      id: id * 10 + index,
      workspace_id: workspaceId,
      core_limit: 1000,
      credit_limit: 100000,
      is_admin: false,
      email,
      organization_invite_id: id,
    })),
    organization_invite_id: id,
    ...overrides,
  };
}

/** An organization as lists show it: its plan and the caller's role. */
export function summary(org: ReturnType<typeof organization>, role: 'admin' | 'member' = 'admin') {
  const {
    member_set: _members,
    custom_groups: _groups,
    member_count: _m,
    pending_invite_count: _p,
    workspace_count: _w,
    ...rest
  } = org;
  return { ...rest, role };
}

export const orgScope = {
  type: 'organization',
  id: ORG_ID,
  name: 'Acme',
  slug: null,
  email: null,
  workspace_names: [],
  organization_id: ORG_ID,
};

export const items = <T>(list: T[]) => ({ items: list, count: list.length });

/** The Team page's calls for one organization. */
export function teamRoutes({
  org = organization(),
  workspaces = [
    workspace(11, 'analytics', [
      [ME, 'ada', true],
      [2, 'bob', false],
    ]),
  ],
  members = [member(100, ME, 'ada', 'admin', [11], true), member(101, 2, 'bob', 'member', [11])],
  invites = [invite(300, 'newcomer@example.com', [11])],
}: {
  org?: ReturnType<typeof organization>;
  workspaces?: ReturnType<typeof workspace>[];
  members?: ReturnType<typeof member>[];
  invites?: ReturnType<typeof invite>[];
} = {}) {
  return {
    'GET /api/v2/deployment': deploymentAnswer(),
    'GET /api/v2/users/user/valid-scopes': [
      { ...orgScope, type: 'compound', id: 'everything', name: 'Everything', organization_id: null },
      orgScope,
    ],
    [`GET /api/v2/users/organizations/details/${ORG_ID}`]: org,
    'GET /api/v2/users/workspaces/': items(workspaces),
    [`GET /api/v2/users/organizations/members/${ORG_ID}`]: items(members),
    [`GET /api/v2/users/invites/organization/${ORG_ID}`]: items(invites),
    'GET /api/v2/users/organizations/': items([summary(org)]),
  };
}

/** Two workspaces: the user administers analytics, not research. */
export const twoWorkspaces = [
  workspace(11, 'analytics', [[ME, 'ada', true]]),
  workspace(12, 'research', [[ME, 'ada', false]]),
];

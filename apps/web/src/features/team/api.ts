import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { scopeKeys } from '@/data/scopes/keys';
import { userKeys } from '@/data/user/keys';
import { toWire } from '@/lib/api/camelize';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type Organization = ApiData<'/api/v2/users/organizations/details/{organization_id}', 'get'>;
export type OrganizationSummary = ApiData<'/api/v2/users/organizations/', 'get'>['items'][number];
export type TeamWorkspace = ApiData<'/api/v2/users/workspaces/', 'get'>['items'][number];
export type Member = ApiData<'/api/v2/users/organizations/members/{organization_id}', 'get'>['items'][number];
export type Invite = ApiData<'/api/v2/users/invites/organization/{organization_id}', 'get'>['items'][number];

type AddMemberWire = ApiBody<'/api/v2/users/organizations/add-membership', 'post'>;
type UpdateMemberWire = ApiBody<'/api/v2/users/organizations/update-membership/{membership_id}', 'patch'>;
export type WorkspaceRow = {
  id?: number;
  workspaceId: number;
  isAdmin: boolean;
  coreLimit: number;
  creditLimit: number;
};
export type AddMemberBody = {
  emailOrUsername: string;
  organizationId: number;
  role: 'admin' | 'member';
  workspaces: WorkspaceRow[];
};
export type UpdateMemberBody = { role: 'admin' | 'member'; workspaces: WorkspaceRow[] };

export const teamKeys = {
  all: ['team'] as const,
  organizationSearch: (search: string, staff: boolean) =>
    [...teamKeys.all, 'organization-search', staff ? 'staff' : 'mine', search] as const,
  organization: (id: number) => [...teamKeys.all, 'organization', id] as const,
  details: (id: number) => [...teamKeys.organization(id), 'details'] as const,
  workspaces: (id: number) => [...teamKeys.organization(id), 'workspaces'] as const,
  members: (id: number) => [...teamKeys.organization(id), 'members'] as const,
  invites: (id: number) => [...teamKeys.organization(id), 'invites'] as const,
  membership: (id: number) => [...teamKeys.all, 'membership', id] as const,
  invite: (id: number) => [...teamKeys.all, 'invite', id] as const,
};

const PAGE = 500;
const MAX_PAGES = 20;

/** Reads a v2 `{items, count}` list to its end, 500 at a time. */
async function allItems<T>(
  fetchPage: (offset: number) => Promise<{ items: T[]; count: number }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetchPage(page * PAGE);
    items.push(...answer.items);
    if (answer.items.length < PAGE || items.length >= answer.count) break;
  }
  return items;
}

/** Organizations matching the text: the user's own, or (staff) every organization on the server. */
export function useOrganizationSearch(search: string, staff: boolean) {
  return useQuery({
    queryKey: teamKeys.organizationSearch(search, staff),
    queryFn: ({ signal }) => {
      const query = { search: search || undefined, limit: 50 };
      return staff
        ? call(api.GET('/api/v2/users/organizations/staff-list', { params: { query }, signal }))
        : call(api.GET('/api/v2/users/organizations/', { params: { query }, signal }));
    },
    placeholderData: (previous) => previous,
  });
}

export function useOrganization(id: number | null) {
  return useQuery({
    queryKey: teamKeys.details(id ?? 0),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/users/organizations/details/{organization_id}', {
          params: { path: { organization_id: id ?? 0 } },
          signal,
        }),
      ),
    enabled: id !== null,
  });
}

/** The organization's workspaces the user sees (all of them for its admins), with their members. */
export function useOrganizationWorkspaces(id: number | null) {
  return useQuery({
    queryKey: teamKeys.workspaces(id ?? 0),
    queryFn: ({ signal }) =>
      allItems((offset) =>
        call(
          api.GET('/api/v2/users/workspaces/', {
            params: { query: { organization_id: id ?? 0, offset, limit: PAGE } },
            signal,
          }),
        ),
      ),
    enabled: id !== null,
  });
}

export function useOrganizationMembers(id: number | null) {
  return useQuery({
    queryKey: teamKeys.members(id ?? 0),
    queryFn: ({ signal }) =>
      allItems((offset) =>
        call(
          api.GET('/api/v2/users/organizations/members/{organization_id}', {
            params: { path: { organization_id: id ?? 0 }, query: { offset, limit: PAGE } },
            signal,
          }),
        ),
      ),
    enabled: id !== null,
  });
}

export function useOrganizationInvites(id: number | null) {
  return useQuery({
    queryKey: teamKeys.invites(id ?? 0),
    queryFn: ({ signal }) =>
      allItems((offset) =>
        call(
          api.GET('/api/v2/users/invites/organization/{organization_id}', {
            params: { path: { organization_id: id ?? 0 }, query: { offset, limit: PAGE } },
            signal,
          }),
        ),
      ),
    enabled: id !== null,
  });
}

export function useMembership(id: number | null) {
  return useQuery({
    queryKey: teamKeys.membership(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/users/organizations/membership/{membership_id}', {
          params: { path: { membership_id: id ?? 0 } },
          signal,
        }),
      ),
  });
}

export function useInvite(id: number | null) {
  return useQuery({
    queryKey: teamKeys.invite(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/users/invites/organization-invite/{invite_id}', {
          params: { path: { invite_id: id ?? 0 } },
          signal,
        }),
      ),
  });
}

/**
 * After a change: the organization's lists, and what the shell and the scope picker know of the
 * user's own memberships (which a change to the user's own rows, or a new workspace, alters).
 */
function useRefresh() {
  const queryClient = useQueryClient();
  return (organizationId?: number) =>
    Promise.all([
      organizationId === undefined
        ? queryClient.invalidateQueries({ queryKey: teamKeys.all })
        : queryClient.invalidateQueries({ queryKey: teamKeys.organization(organizationId) }),
      queryClient.invalidateQueries({ queryKey: [...teamKeys.all, 'organization-search'] }),
      queryClient.invalidateQueries({ queryKey: userKeys.workspaceMemberships() }),
      queryClient.invalidateQueries({ queryKey: userKeys.organizationMemberships() }),
      queryClient.invalidateQueries({ queryKey: scopeKeys.valid() }),
    ]);
}

export function useCreateOrganization() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (name: string) => call(api.POST('/api/v2/users/organizations/create', { body: { name } })),
    // Waits for the fresh lists, so the new organization is a valid scope when it is picked.
    onSuccess: () => refresh(),
  });
}

export function useCreateWorkspace(organizationId: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (name: string) =>
      call(api.POST('/api/v2/users/workspaces/', { body: { name, organization_id: organizationId } })),
    onSuccess: () => refresh(organizationId),
  });
}

export function useUpdateWorkspaceCreditLimit(organizationId: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ workspaceId, creditLimit }: { workspaceId: number; creditLimit: number }) =>
      call(
        api.PATCH('/api/v2/users/workspaces/details/{workspace_id}', {
          params: { path: { workspace_id: workspaceId } },
          body: { credit_limit: creditLimit },
        }),
      ),
    onSuccess: () => refresh(organizationId),
  });
}

export function useAddMember() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: AddMemberBody) =>
      call(api.POST('/api/v2/users/organizations/add-membership', { body: toWire<AddMemberWire>(body) })),
    onSuccess: (_answer, body) => refresh(body.organizationId),
  });
}

export function useUpdateMember(organizationId: number, membershipId: number) {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMemberBody) =>
      call(
        api.PATCH('/api/v2/users/organizations/update-membership/{membership_id}', {
          params: { path: { membership_id: membershipId } },
          body: toWire<UpdateMemberWire>(body),
        }),
      ),
    onSuccess: (membership) => {
      queryClient.setQueryData(teamKeys.membership(membershipId), membership);
      return refresh(organizationId);
    },
  });
}

export function useUpdateInvite(organizationId: number, inviteId: number) {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMemberBody) =>
      call(
        api.PATCH('/api/v2/users/invites/organization-invite/{invite_id}', {
          params: { path: { invite_id: inviteId } },
          body: toWire<UpdateMemberWire>(body),
        }),
      ),
    onSuccess: (invite) => {
      queryClient.setQueryData(teamKeys.invite(inviteId), invite);
      return refresh(organizationId);
    },
  });
}

export function useRemoveMember(organizationId: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (membershipId: number) =>
      call(
        api.DELETE('/api/v2/users/organizations/remove-membership/{membership_id}', {
          params: { path: { membership_id: membershipId } },
        }),
      ),
    onSuccess: () => refresh(organizationId),
  });
}

export function useDeleteInvite(organizationId: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (inviteId: number) =>
      call(
        api.DELETE('/api/v2/users/invites/organization-invite/{invite_id}', {
          params: { path: { invite_id: inviteId } },
        }),
      ),
    onSuccess: () => refresh(organizationId),
  });
}

export function useResendInvite(organizationId: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (inviteId: number) =>
      call(
        api.POST('/api/v2/users/invites/organization-invite-resend/{invite_id}', {
          params: { path: { invite_id: inviteId } },
        }),
      ),
    onSuccess: () => refresh(organizationId),
  });
}

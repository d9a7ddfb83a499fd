import { Building2Icon, FolderIcon, LayersIcon, ShieldIcon, UserIcon } from 'lucide-react';
import * as React from 'react';

import { type PickerGroup, SearchPicker } from '@/components/search-picker';
import { useStaffOrganizationSearchQuery } from '@/data/scopes/staff-organization-search-query';
import type { Scope } from '@/data/scopes/valid-scopes-query';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useScope } from '@/lib/scopes/current-scope';
import { organizationScope, SCOPE_SEARCH_DEBOUNCE_MS, scopeKey } from '@/lib/scopes/scope';
import { useSignedIn } from '@/lib/signed-in';

const ICONS: Record<Scope['type'], React.ComponentType<{ className?: string }>> = {
  compound: LayersIcon,
  organization: Building2Icon,
  account: FolderIcon,
  user: UserIcon,
  custom_staff: ShieldIcon,
};

export function ScopeIcon({ type }: { type: Scope['type'] }) {
  const Icon = ICONS[type];
  return <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function describe(scope: Scope, organizations: Map<number, string>): string | undefined {
  switch (scope.type) {
    case 'compound':
      return `All your workspaces (${scope.workspaceNames.length})`;
    case 'organization':
      return plural(scope.workspaceNames.length, 'workspace');
    case 'account':
      return scope.organizationId === null ? undefined : organizations.get(scope.organizationId);
    case 'user':
      return scope.email ?? undefined;
    case 'custom_staff':
      return scope.workspaceNames.length > 0
        ? plural(scope.workspaceNames.length, 'workspace')
        : 'Staff list';
  }
}

const HEADINGS: Array<[Scope['type'], string]> = [
  ['compound', 'Everything'],
  ['organization', 'Organizations'],
  ['account', 'Workspaces'],
  ['user', 'User'],
  ['custom_staff', 'Staff lists'],
];

const matches = (scope: Scope, text: string) =>
  !text || scope.name.toLowerCase().includes(text) || (scope.email?.toLowerCase().includes(text) ?? false);

type ScopePickerProps = {
  /** Controlled use; without these the picker reads and sets the console's current scope. */
  value?: Scope | null;
  onChange?: (scope: Scope) => void;
  className?: string;
};

/**
 * Picks what a list shows: Everything, an organization, a workspace
 * or the user; staff also get the custom staff lists and can search every organization. The search
 * is debounced by 150 ms. Pair it with useScope() and scopeQuery() (see index.ts).
 */
export function ScopePicker({ value, onChange, className }: ScopePickerProps) {
  const { user } = useSignedIn();
  const current = useScope();
  const scope = value === undefined ? current.scope : value;
  const select = onChange ?? current.setScope;
  const [search, setSearch] = React.useState('');
  const text = useDebouncedValue(search.trim().toLowerCase(), SCOPE_SEARCH_DEBOUNCE_MS);
  const staffSearch = useStaffOrganizationSearchQuery({ startsWith: text }, { enabled: user.isStaff });

  const { groups, byKey } = React.useMemo(() => {
    const organizations = new Map(
      current.scopes.filter((s) => s.type === 'organization').map((s) => [Number(s.id), s.name]),
    );
    const byKey = new Map<string, Scope>();
    const groups: PickerGroup[] = HEADINGS.map(([type, heading]) => ({
      heading,
      options: current.scopes
        .filter((s) => s.type === type && matches(s, text))
        .map((s) => {
          byKey.set(scopeKey(s), s);
          return {
            key: scopeKey(s),
            label: s.type === 'user' ? `${s.name} (me)` : s.name,
            description: describe(s, organizations),
            icon: <ScopeIcon type={s.type} />,
          };
        }),
    }));
    if (user.isStaff && text) {
      const found = (staffSearch.data?.items ?? [])
        .map(organizationScope)
        .filter((s) => !byKey.has(scopeKey(s)));
      for (const s of found) byKey.set(scopeKey(s), s);
      groups.push({
        heading: 'All organizations (staff)',
        options: found.map((s) => ({ key: scopeKey(s), label: s.name, icon: <ScopeIcon type={s.type} /> })),
      });
    }
    return { groups, byKey };
  }, [current.scopes, text, user.isStaff, staffSearch.data]);

  return (
    <SearchPicker
      label="Scope"
      placeholder={user.isStaff ? 'Search scopes and organizations' : 'Search scopes'}
      selected={scope ? { label: scope.name, icon: <ScopeIcon type={scope.type} /> } : null}
      selectedKey={scope ? scopeKey(scope) : null}
      groups={groups}
      search={search}
      onSearchChange={setSearch}
      onSelect={(key) => {
        const next = byKey.get(key);
        if (next) select(next);
      }}
      loading={current.isPending || (staffSearch.isFetching && text.length > 0)}
      emptyText="No matching scopes"
      className={className}
    />
  );
}

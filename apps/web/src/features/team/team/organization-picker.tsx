import { Building2Icon } from 'lucide-react';
import * as React from 'react';

import { SearchPicker } from '@/components/search-picker';
import { useOrganizationSearchQuery } from '@/data/organizations/organization-search-query';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { organizationScope, pickScope, SCOPE_SEARCH_DEBOUNCE_MS } from '@/lib/scopes';
import { useSignedIn } from '@/lib/signed-in';

const icon = <Building2Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />;

/**
 * The Team page's organization picker: searches the user's organizations (staff: all of them) and
 * makes the picked one the console's scope.
 */
export function OrganizationPicker({ selected }: { selected: { id: number; name: string } | null }) {
  const { user } = useSignedIn();
  const [search, setSearch] = React.useState('');
  const text = useDebouncedValue(search.trim(), SCOPE_SEARCH_DEBOUNCE_MS);
  const found = useOrganizationSearchQuery({ search: text, staff: user.isStaff });
  const items = found.data?.items ?? [];

  return (
    <SearchPicker
      label="Organization"
      placeholder="Search for an organization"
      selected={selected ? { label: selected.name, icon } : null}
      selectedKey={selected ? String(selected.id) : null}
      groups={[
        {
          options: items.map((organization) => ({
            key: String(organization.id),
            label: organization.name,
            description: [
              organization.isPersonal ? 'Personal' : null,
              organization.role === 'admin' ? 'Admin' : organization.role === 'member' ? 'Member' : null,
            ]
              .filter(Boolean)
              .join(' · '),
            icon,
          })),
        },
      ]}
      search={search}
      onSearchChange={setSearch}
      onSelect={(key) => {
        const organization = items.find((candidate) => String(candidate.id) === key);
        if (organization) pickScope(organizationScope(organization));
      }}
      loading={found.isFetching}
      emptyText="No organizations found"
      className="w-72 max-sm:flex-1"
    />
  );
}

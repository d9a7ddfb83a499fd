import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useSignedIn } from '@/lib/signed-in';

/** Picks which of the user's organizations the Billing page shows. */
export function OrganizationSelect({
  organizationId,
  name,
  onChange,
}: {
  organizationId: number;
  /** The shown organization's name, when it is not one of the user's (staff). */
  name: string;
  onChange: (organizationId: number) => void;
}) {
  const { organizationMemberships } = useSignedIn();
  const options = organizationMemberships.map((membership) => membership.organization);
  if (!options.some((organization) => organization.id === organizationId))
    options.push({ id: organizationId, name, isPersonal: false });
  if (options.length < 2) return null;
  return (
    <Select value={String(organizationId)} onValueChange={(value) => onChange(Number(value))}>
      <SelectTrigger aria-label="Organization" className="w-60 max-sm:w-full">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((organization) => (
          <SelectItem key={organization.id} value={String(organization.id)}>
            {organization.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

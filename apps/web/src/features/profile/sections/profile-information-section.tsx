import * as React from 'react';

import { Button } from '@/components/ui/button';
import { EditProfileDialog } from '@/features/profile/sections/edit-profile-dialog';
import { SectionCard } from '@/features/profile/sections/section-card';
import { useSignedIn } from '@/lib/signed-in';

/** Profile Information: a read-only table, and an Edit dialog. */
export function ProfileInformationSection() {
  const { user } = useSignedIn();
  const [editing, setEditing] = React.useState(false);
  const emailLabel = user.hasUsablePassword ? 'Email' : 'Work Email';
  const rows: [string, React.ReactNode][] = [
    ['Full name', user.fullName],
    ['Preferred name', user.preferredName],
    ['Title', user.profile.title],
    ['Company', user.profile.company],
    [emailLabel, user.profile.workEmail],
    ['Phone number', user.profile.phoneNumber],
    ['Can contact', user.profile.canContact ? 'Yes' : 'No'],
  ];

  return (
    <SectionCard
      id="profile-information"
      title="Profile Information"
      actions={
        <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
          Edit
        </Button>
      }
      className="p-0 sm:p-0"
    >
      <dl className="divide-y text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[10rem_1fr] gap-4 px-4 py-2.5 sm:px-5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 truncate">
              {value || <span className="text-muted-foreground">Not set</span>}
            </dd>
          </div>
        ))}
      </dl>
      <EditProfileDialog open={editing} onOpenChange={setEditing} />
    </SectionCard>
  );
}

import { Page, PageHeader } from '@/components/page';
import { ApiTokensSection } from '@/features/profile/sections/api-tokens-section';
import { DefaultWorkspaceSection } from '@/features/profile/sections/default-workspace-section';
import { ChartColorSection, TimeZoneSection } from '@/features/profile/sections/display-sections';
import { GitTokenSection } from '@/features/profile/sections/git-token-section';
import { IdentitiesSection } from '@/features/profile/sections/identities-section';
import { PasswordSection } from '@/features/profile/sections/password-section';
import { ProfileInformationSection } from '@/features/profile/sections/profile-information-section';
import { UsernameSection } from '@/features/profile/sections/username-section';
import { usePageMeta } from '@/lib/page-meta';
import { useSignedIn } from '@/lib/signed-in';

/** The Profile page: its sections, in the spec's order. */
export function ProfilePage() {
  const { user } = useSignedIn();
  usePageMeta({ title: 'Profile' });

  return (
    <Page className="max-w-4xl gap-10">
      <PageHeader title="Profile" description={`Signed in as ${user.email}`} />
      <DefaultWorkspaceSection />
      <ApiTokensSection />
      <UsernameSection />
      {user.hasUsablePassword ? <PasswordSection /> : null}
      <IdentitiesSection />
      <ProfileInformationSection />
      <GitTokenSection />
      <TimeZoneSection />
      <ChartColorSection />
    </Page>
  );
}

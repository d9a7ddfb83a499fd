import { differenceInCalendarDays } from 'date-fns';
import { Link } from 'react-router';
import { ApiTokenBanner } from '@/app/shell/api-token-banner';
import { UsageBanners } from '@/app/shell/usage-banners';
import { Banner, type BannerTone } from '@/components/banner';
import { Button } from '@/components/ui/button';
import { useBannersQuery } from '@/data/interactions/banners-query';
import type { OrganizationMembership } from '@/data/user/organization-memberships-query';
import { paths } from '@/lib/paths';
import { useSignedIn } from '@/lib/signed-in';

/** The earliest Pro trial expiry still ahead, across the user's organizations. */
export function earliestTrialExpiration(
  memberships: OrganizationMembership[],
  now = new Date(),
): Date | null {
  const upcoming = memberships
    .map((membership) => membership.displayedProTrialExpiration)
    .filter((value): value is string => value !== null)
    .map((value) => new Date(value))
    .filter((date) => date.getTime() > now.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
  return upcoming[0] ?? null;
}

export function trialDaysLeft(expiration: Date, now = new Date()): number {
  return Math.max(0, differenceInCalendarDays(expiration, now));
}

function TrialBanner() {
  const { organizationMemberships } = useSignedIn();
  const expiration = earliestTrialExpiration(organizationMemberships);
  if (!expiration) return null;
  const days = trialDaysLeft(expiration);
  return (
    <Banner
      title={`${days} ${days === 1 ? 'day' : 'days'} left in your Pro trial`}
      action={
        <Button asChild size="sm" variant="outline">
          <Link to={paths.billing}>Billing</Link>
        </Button>
      }
    >
      Your Pro trial ends on {expiration.toLocaleDateString()}. Choose a plan on the Billing page to keep its
      features.
    </Banner>
  );
}

const LEVEL_TONES: Record<string, BannerTone> = { warning: 'warning', error: 'error', critical: 'error' };

function Announcements() {
  const banners = useBannersQuery();
  const now = Date.now();
  const active = (banners.data ?? []).filter(
    (banner) =>
      new Date(banner.start).getTime() <= now && (!banner.end || new Date(banner.end).getTime() > now),
  );
  return active.map((banner) => (
    <Banner key={banner.id} tone={LEVEL_TONES[banner.level] ?? 'info'} title={banner.title}>
      {banner.message}
    </Banner>
  ));
}

/** The banner area above every signed-in page. */
export function Banners() {
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-2 px-4 pt-4 empty:hidden md:px-8">
      <UsageBanners />
      <Announcements />
      <TrialBanner />
      <ApiTokenBanner />
    </div>
  );
}

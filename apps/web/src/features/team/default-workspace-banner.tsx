import * as React from 'react';
import { Link, useSearchParams } from 'react-router';

import { Banner } from '@/components/banner';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { useSignedIn } from '@/lib/signed-in';

export const SHOW_DEFAULT_WORKSPACE_BANNER = 'showDefaultWorkspaceBanner';

/**
 * After a workspace is created the Team page opens with ?showDefaultWorkspaceBanner=true: the
 * new workspace is not the user's default. The banner stays; the parameter is removed.
 */
export function DefaultWorkspaceBanner() {
  const { user } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const requested = params.get(SHOW_DEFAULT_WORKSPACE_BANNER) === 'true';
  const [shown, setShown] = React.useState(requested);

  React.useEffect(() => {
    if (!params.has(SHOW_DEFAULT_WORKSPACE_BANNER)) return;
    if (requested) setShown(true);
    setParams(
      (current) => {
        current.delete(SHOW_DEFAULT_WORKSPACE_BANNER);
        return current;
      },
      { replace: true },
    );
  }, [params, requested, setParams]);

  if (!shown) return null;
  const current = user.defaultAccount?.name;
  return (
    <Banner
      tone="info"
      title="The new workspace is not your default"
      onDismiss={() => setShown(false)}
      action={
        <Button asChild variant="outline" size="sm">
          <Link to={paths.profile}>Go to Profile</Link>
        </Button>
      }
    >
      {current
        ? `Your default workspace is still ${current}. `
        : 'Your default workspace is still your default account. '}
      You can change it in your profile.
    </Banner>
  );
}

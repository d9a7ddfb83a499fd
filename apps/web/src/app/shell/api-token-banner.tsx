import * as React from 'react';
import { Link } from 'react-router';

import { Banner } from '@/components/banner';
import { Button } from '@/components/ui/button';
import { useDeploymentQuery } from '@/data/deployment/deployment-query';
import { useFlagsQuery } from '@/data/interactions/flags-query';
import { useInteractionRecordMutation } from '@/data/interactions/interaction-record-mutation';
import { useNoticeSeen } from '@/data/interactions/notice-seen';
import { useIsMobile } from '@/hooks/use-mobile';
import { paths } from '@/lib/paths';

export const API_TOKEN_BANNER_TITLE = 'Long-lived API tokens are here';
const CREATE_TOKEN_LINK = `${paths.profile}?createTokenDialog=true`;

/**
 * "Long-lived API tokens are here", until the user dismisses it — which
 * records the `api-token-message` interaction, so it never returns — or has a token (`has-api-key`).
 * On a phone it is one short line with a link. It is news for a hosted service's users only: a
 * self-hosted install (`hosted_service` false) always had tokens, so it greets no one there.
 */
export function ApiTokenBanner() {
  const hosted = useDeploymentQuery().data?.hostedService === true;
  if (!hosted) return null;
  return <ApiTokenNews />;
}

function ApiTokenNews() {
  const seen = useNoticeSeen('api-token-message');
  const flags = useFlagsQuery();
  const record = useInteractionRecordMutation();
  const [dismissed, setDismissed] = React.useState(false);
  const isMobile = useIsMobile();
  // Until the flags are known, say nothing: a user with a token must never see it flash.
  if (seen || dismissed || flags.data === undefined || flags.data['has-api-key']) return null;

  const dismiss = () => {
    setDismissed(true);
    record.mutate('api-token-message');
  };
  if (isMobile) {
    return (
      <Banner title={API_TOKEN_BANNER_TITLE} onDismiss={dismiss} className="py-2">
        <Link to={CREATE_TOKEN_LINK} className="text-foreground underline underline-offset-4">
          Create a token
        </Link>
      </Banner>
    );
  }
  return (
    <Banner
      title={API_TOKEN_BANNER_TITLE}
      onDismiss={dismiss}
      action={
        <Button asChild size="sm" variant="outline">
          <Link to={CREATE_TOKEN_LINK}>Create a token</Link>
        </Button>
      }
    >
      Create an API token on the Profile page to use Cumulus from scripts, CI and the Python client.
    </Banner>
  );
}

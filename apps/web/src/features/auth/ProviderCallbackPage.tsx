import type { UseMutationResult } from '@tanstack/react-query';
import { KeyRoundIcon, LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { useMailIdentityLinkMutation } from '@/data/auth/identity-link-mutations';
import { type CallbackAnswer, useProviderTokenMutation } from '@/data/auth/provider-token-mutation';
import { useSsoTokenMutation } from '@/data/auth/sso-token-mutation';
import { useDeploymentQuery } from '@/data/deployment/deployment-query';
import { EmailLinkButton, LinkMailed } from '@/features/auth/link-identity';
import { providerFailure } from '@/features/auth/messages';
import { isOAuthProvider, OAUTH_PROVIDERS } from '@/features/auth/providers';
import { useLinks } from '@/hooks/use-links';
import { isApiError } from '@/lib/api/errors';
import { paths } from '@/lib/paths';
import { takeReturnTo } from '@/lib/return-to';

/**
 * A provider sent the browser back with ?code=...: exchange it for a session, then go to the
 * stored return-to, else the return-to parameter, else root.
 */
function CallbackScreen<Answer, V>({
  name,
  exchange,
  variables,
}: {
  name: string;
  /** The code exchange (its mutation starts the session); `variables` are what it takes for the code. */
  exchange: UseMutationResult<Answer, Error, V>;
  variables: (answer: CallbackAnswer) => V;
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const state = params.get('state') ?? '';
  const iss = params.get('iss');
  const started = React.useRef(false);
  const { supportEmail } = useLinks();
  const mailLink = useMailIdentityLinkMutation();

  React.useEffect(() => {
    if (started.current || !code) return;
    started.current = true;
    const answer: CallbackAnswer = iss ? { code, state, iss } : { code, state };
    exchange.mutate(variables(answer), {
      onSuccess: () => navigate(takeReturnTo(params), { replace: true }),
    });
  }, [code, state, iss, exchange, variables, navigate, params]);

  if (mailLink.isSuccess) return <LinkMailed detail={mailLink.data.detail} />;
  if (!code || exchange.isError) {
    const failure = providerFailure(exchange.error, name, supportEmail);
    return (
      <AuthCard
        title={`Sign in with ${name}`}
        footer={
          <Link to={paths.login} className="hover:text-foreground">
            Go back to login
          </Link>
        }
      >
        <FormAlert>
          {failure.message}
          {failure.reason ? <span className="mt-1 block">{failure.reason}</span> : null}
        </FormAlert>
        {failure.ssoLink ? (
          <Button variant="outline" onClick={() => navigate(paths.workos)}>
            <KeyRoundIcon aria-hidden="true" />
            Sign in with SSO
          </Button>
        ) : null}
        {isApiError(exchange.error) && exchange.error.body?.code === 'IDENTITY_LINK_REQUIRED' ? (
          <EmailLinkButton send={mailLink} />
        ) : null}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Signing in with ${name}`}>
      <div role="status" className="text-muted-foreground flex items-center gap-2 text-sm">
        <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
        One moment…
      </div>
    </AuthCard>
  );
}

/** /auth/google/callback and /auth/github/callback. */
export function OAuthCallbackPage() {
  const { provider } = useParams();
  const exchange = useProviderTokenMutation();
  if (!isOAuthProvider(provider)) {
    return (
      <AuthCard title="Unknown sign-in provider">
        <Link to={paths.login} className="text-primary text-sm hover:underline">
          Go back to login
        </Link>
      </AuthCard>
    );
  }
  return (
    <CallbackScreen
      name={OAUTH_PROVIDERS[provider].name}
      exchange={exchange}
      variables={(answer) => ({ provider, ...answer })}
    />
  );
}

/** /auth/sso/callback. */
export function SsoCallbackPage() {
  const exchange = useSsoTokenMutation();
  const name = useDeploymentQuery().data?.signInProviders.find((p) => p.id === 'sso')?.name ?? 'SSO';
  return <CallbackScreen name={name} exchange={exchange} variables={(answer) => answer} />;
}

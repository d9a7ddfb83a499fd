import { CircleCheckIcon, LoaderCircleIcon, LogOutIcon, TerminalIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import { FormField } from '@/components/form-field';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useApiTokenActivateMutation } from '@/data/api-tokens/api-token-activate-mutation';
import { useLogoutMutation } from '@/data/auth/logout-mutation';
import { useCurrentUserQuery } from '@/data/user/current-user-query';
import { useLinks } from '@/hooks/use-links';
import { isApiError } from '@/lib/api/errors';
import { paths } from '@/lib/paths';

/** The header of this page: the logo, and the signed-in email with a Logout item. */
function ActivateHeader() {
  const user = useCurrentUserQuery();
  const logout = useLogoutMutation();
  return (
    <header className="flex h-14 items-center justify-between gap-3 border-b px-4 sm:px-6">
      <Link to={paths.root} className="flex shrink-0 rounded-md">
        <Logo />
      </Link>
      {user.data ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            {/* A long address shortens on a phone rather than widen the page. */}
            <Button variant="ghost" size="sm" className="min-w-0 shrink" title={user.data.email}>
              <span className="truncate">{user.data.email}</span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => logout.mutate()}>
              <LogOutIcon aria-hidden="true" />
              Logout
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ) : (
        <Skeleton className="h-5 w-40" />
      )}
    </header>
  );
}

function Panel({
  title,
  icon,
  description,
  children,
  footer,
}: {
  title: string;
  icon: React.ReactNode;
  description?: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <Card className="w-full max-w-md gap-5 shadow-xl">
      <DocumentTitle title={title} />
      <CardHeader className="gap-3">
        <div className="bg-primary/10 text-primary flex size-10 items-center justify-center rounded-lg">
          {icon}
        </div>
        <CardTitle role="heading" aria-level={1} className="text-xl tracking-tight">
          {title}
        </CardTitle>
        {description ? <CardDescription className="text-sm">{description}</CardDescription> : null}
      </CardHeader>
      {children ? <CardContent className="grid gap-4">{children}</CardContent> : null}
      {footer ? <CardFooter className="justify-end gap-2">{footer}</CardFooter> : null}
    </Card>
  );
}

/** The server's message about a typed code (wrong, too many tries), shown under the field. */
const codeErrors = (error: unknown) => (isApiError(error) ? error.fieldErrors('user_code') : []);

/**
 * Activate API Token: a terminal's `cumulus login` opened this page with the id
 * of its pending token and printed a code; typing that code here (device flow) proves the person
 * approving is the one at the terminal, and makes the token act as the signed-in user.
 */
export function ActivateTokenPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const activate = useApiTokenActivateMutation();
  const identifier = params.get('id') ?? params.get('identifier');
  const { supportMailto } = useLinks();
  const [userCode, setUserCode] = React.useState('');
  const wrongCode = codeErrors(activate.error);

  let panel: React.ReactNode;
  if (!identifier) {
    panel = (
      <Panel
        title="Token Missing"
        icon={<TriangleAlertIcon className="size-5" aria-hidden="true" />}
        description="This link has no token id. Some terminals strip part of a long link when it is opened; copy the whole link your terminal printed into the address bar."
      >
        <p className="text-muted-foreground text-sm">It looks like this:</p>
        <code className="bg-muted/50 rounded-md border px-3 py-2 font-mono text-xs">
          {window.location.origin}/activate-token?id=...
        </code>
      </Panel>
    );
  } else if (activate.isPending) {
    panel = (
      <Panel
        title="Authorizing Access.."
        icon={<LoaderCircleIcon className="size-5 animate-spin" aria-hidden="true" />}
      />
    );
  } else if (activate.isSuccess) {
    panel = (
      <Panel
        title="Authorized"
        icon={<CircleCheckIcon className="size-5" aria-hidden="true" />}
        description="Authentication successful, you can close this window now."
      />
    );
  } else if (activate.isError && wrongCode.length === 0) {
    panel = (
      <Panel
        title="Something went wrong..."
        icon={<TriangleAlertIcon className="size-5" aria-hidden="true" />}
        description={
          supportMailto ? (
            <>
              Try again or contact{' '}
              <a href={supportMailto} className="text-primary hover:underline">
                support
              </a>
              .
            </>
          ) : (
            'Try again, or ask the administrator of this Cumulus server.'
          )
        }
      />
    );
  } else {
    const submit = (event: React.FormEvent) => {
      event.preventDefault();
      activate.mutate({ identifier, userCode });
    };
    panel = (
      <form onSubmit={submit} className="contents">
        <Panel
          title="Confirm Access Request"
          icon={<TerminalIcon className="size-5" aria-hidden="true" />}
          description="A client application is requesting access to act as you."
          footer={
            <>
              <Button type="button" variant="ghost" onClick={() => navigate(paths.root)}>
                Cancel
              </Button>
              <Button type="submit" disabled={userCode.trim() === ''}>
                Authorize Access
              </Button>
            </>
          }
        >
          <p className="text-muted-foreground text-sm">
            Type the code shown in your terminal. Only authorize a request you started yourself.
          </p>
          <FormField label="Code from your terminal" error={wrongCode}>
            <Input
              value={userCode}
              onChange={(event) => setUserCode(event.target.value)}
              placeholder="BCDF-GHJK"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              className="font-mono tracking-widest uppercase"
            />
          </FormField>
        </Panel>
      </form>
    );
  }

  return (
    <div className="flex min-h-svh flex-col">
      <ActivateHeader />
      <main className="flex flex-1 items-start justify-center px-4 pt-[12vh] pb-16">{panel}</main>
    </div>
  );
}

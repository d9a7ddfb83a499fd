import { Link, useLocation } from 'react-router';

import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { paths, REDIRECT_URI_PARAM, RETURN_TO_PARAM } from '@/lib/paths';
import { cn } from '@/lib/utils';

/** Keeps return-to / redirect_uri when hopping between login and sign-up. */
function carriedSearch(search: string): string {
  const current = new URLSearchParams(search);
  const carried = new URLSearchParams();
  for (const key of [RETURN_TO_PARAM, REDIRECT_URI_PARAM]) {
    const value = current.get(key);
    if (value !== null) carried.set(key, value);
  }
  const query = carried.toString();
  return query ? `?${query}` : '';
}

/**
 * Public header: the logo links to root; the toggle reads "Sign Up" on the login page and
 * "Login" elsewhere, and is hidden on the page it points to.
 */
function PublicHeader({ className }: { className?: string }) {
  const { pathname, search } = useLocation();
  const onLogin = pathname === paths.login;
  const target = onLogin ? paths.signup : paths.login;
  const showToggle = pathname !== target;

  return (
    <header
      data-slot="public-header"
      className={cn('flex h-14 items-center justify-between px-4 sm:px-6', className)}
    >
      <Link
        to={paths.root}
        className="flex rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <Logo />
      </Link>
      {showToggle ? (
        <Button asChild variant={onLogin ? 'default' : 'outline'} size="sm">
          <Link to={`${target}${carriedSearch(search)}`}>{onLogin ? 'Sign Up' : 'Login'}</Link>
        </Button>
      ) : null}
    </header>
  );
}

export { carriedSearch, PublicHeader };

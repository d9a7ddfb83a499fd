import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Separator } from '@/components/ui/separator';
import { paths } from '@/lib/paths';

/** What the login card will look like; the real form arrives with the auth feature. */
export function AuthCardPreviewPage() {
  return (
    <AuthCard
      title="Sign in"
      description="Welcome back to Cumulus."
      footer={
        <Link
          to={paths.componentSandbox}
          className="hover:text-foreground underline-offset-4 hover:underline"
        >
          Back to the component sandbox
        </Link>
      }
    >
      <title>Auth card · Cumulus</title>
      <form className="grid gap-4" onSubmit={(event) => event.preventDefault()}>
        <FormField label="Username or email">
          <Input autoComplete="username" />
        </FormField>
        <FormField label="Password">
          <Input type="password" autoComplete="current-password" />
        </FormField>
        <Button type="submit" className="w-full">
          Sign in
        </Button>
      </form>
      <div className="text-muted-foreground flex items-center gap-3 text-xs">
        <Separator className="flex-1" />
        or
        <Separator className="flex-1" />
      </div>
      <div className="grid gap-2">
        <Button variant="outline" className="w-full">
          Continue with Google
        </Button>
        <Button variant="outline" className="w-full">
          Continue with GitHub
        </Button>
        <Button variant="outline" className="w-full">
          Continue with SSO
        </Button>
      </div>
    </AuthCard>
  );
}

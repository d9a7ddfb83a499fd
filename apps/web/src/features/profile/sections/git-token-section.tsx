import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useGitAccessTokenMutation } from '@/data/user/git-access-token-mutation';
import { SectionCard } from '@/features/profile/sections/section-card';
import { errorMessage } from '@/lib/api/errors';
import { useSignedIn } from '@/lib/signed-in';

const TOKEN_MAX = 500;

/** GitHub Access Token: set (stored encrypted, never shown again) or remove. */
export function GitTokenSection() {
  const { user } = useSignedIn();
  const save = useGitAccessTokenMutation();
  const [editing, setEditing] = React.useState(false);
  const [value, setValue] = React.useState('');
  const hasToken = user.profile.hasGitAccessToken;

  const stopEditing = () => {
    setEditing(false);
    setValue('');
  };

  return (
    <SectionCard
      id="github-access-token"
      title="GitHub Access Token"
      description="Lets software environment builds install packages from your private GitHub repositories."
    >
      <div className="grid gap-3">
        <FormAlert>{save.isError ? errorMessage(save.error) : null}</FormAlert>
        {editing ? (
          <form
            className="flex max-w-xl flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (value.trim())
                save.mutate({ userId: user.id, token: value.trim() }, { onSuccess: stopEditing });
            }}
          >
            <div className="grid min-w-64 flex-1 gap-2">
              <Label htmlFor="git-access-token">Token</Label>
              <Input
                id="git-access-token"
                type="password"
                autoComplete="off"
                autoFocus
                maxLength={TOKEN_MAX}
                value={value}
                onChange={(event) => setValue(event.target.value)}
              />
            </div>
            <Button type="submit" disabled={!value.trim() || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
            <Button type="button" variant="ghost" onClick={stopEditing}>
              Cancel
            </Button>
          </form>
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-3">
            {hasToken ? (
              <Badge variant="outline" className="border-success/30 bg-success/10 text-success">
                Token set
              </Badge>
            ) : (
              <span className="text-muted-foreground text-sm">No token set.</span>
            )}
            <div className="flex gap-2">
              {hasToken ? (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={save.isPending}
                  onClick={() => save.mutate({ userId: user.id, token: null })}
                >
                  Remove
                </Button>
              ) : null}
              <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                {hasToken ? 'Replace' : 'Set token'}
              </Button>
            </div>
          </div>
        )}
      </div>
    </SectionCard>
  );
}

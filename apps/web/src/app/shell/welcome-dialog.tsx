import * as React from 'react';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useDeploymentQuery } from '@/data/deployment/deployment-query';
import { useClientInteractionMutation } from '@/data/interactions/client-interaction-mutation';
import { useFlagSetMutation } from '@/data/interactions/flag-set-mutation';
import { useFlagsQuery } from '@/data/interactions/flags-query';
import { SHELL_DIALOG_ATTRIBUTE, usePageDialogOpen } from '@/hooks/use-page-dialog-open';

const SEEN_FLAG = 'user-source-dialog' as const;
const SOURCE_MAX = 500;

/**
 * The first-login welcome dialog: how the user learned of the product and
 * whether it is for academic use. Skip and Submit both mark it seen. It waits while a page's own
 * dialog is open (a link to /profile?createTokenDialog=true on first sign-in): one modal at a time.
 * Only a hosted service asks (`hosted_service`): on a self-hosted install nobody greets a new user
 * with a survey whose answers only the operator would read.
 */
export function WelcomeDialog() {
  const hosted = useDeploymentQuery().data?.hostedService === true;
  const flags = useFlagsQuery({ enabled: hosted });
  if (!hosted || flags.data === undefined || flags.data[SEEN_FLAG] === true) return null;
  return <PendingWelcome />;
}

function PendingWelcome() {
  const pageDialogOpen = usePageDialogOpen();
  const setFlag = useFlagSetMutation();
  const record = useClientInteractionMutation();
  const [source, setSource] = React.useState('');
  const [academic, setAcademic] = React.useState(false);
  const [closed, setClosed] = React.useState(false);

  const open = !closed && !pageDialogOpen;

  function finish(submitted: boolean) {
    setClosed(true);
    if (submitted) {
      record.mutate({
        action: 'user-source',
        additional_text: source.trim().slice(0, SOURCE_MAX) || null,
        additional_data: { academic },
      });
    }
    setFlag.mutate({ name: SEEN_FLAG, completed: true });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <DialogContent className="sm:max-w-md" {...{ [SHELL_DIALOG_ATTRIBUTE]: 'welcome' }}>
        <DialogHeader>
          <DialogTitle>Welcome to Cumulus</DialogTitle>
          <DialogDescription>
            One quick question before you start: it helps us know who Cumulus is useful to.
          </DialogDescription>
        </DialogHeader>
        <form
          id="welcome-form"
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            finish(true);
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="welcome-source">How did you hear about Cumulus?</Label>
            <Input
              id="welcome-source"
              value={source}
              maxLength={SOURCE_MAX}
              placeholder="A colleague, a talk, a search..."
              onChange={(event) => setSource(event.target.value)}
            />
          </div>
          <div className="flex items-center gap-2">
            <Checkbox
              id="welcome-academic"
              checked={academic}
              onCheckedChange={(checked) => setAcademic(checked === true)}
            />
            <Label htmlFor="welcome-academic" className="font-normal">
              I am using Cumulus for academic work
            </Label>
          </div>
        </form>
        <DialogFooter>
          <Button variant="ghost" onClick={() => finish(false)}>
            Skip
          </Button>
          <Button type="submit" form="welcome-form">
            Submit
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

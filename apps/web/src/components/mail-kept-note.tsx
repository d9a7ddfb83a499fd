import { ServerIcon } from 'lucide-react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { KEPT_MAIL_WHERE, useMailKeptInLog } from '@/hooks/use-mail-delivery';

/**
 * Says where an email went when the server sends none (no mail server configured), so nobody
 * waits for it in their inbox; nothing when mail is sent.
 */
export function MailKeptNote({ what }: { what: string }) {
  if (!useMailKeptInLog()) return null;
  return (
    <Alert className="min-w-0 [overflow-wrap:anywhere]">
      <ServerIcon aria-hidden="true" />
      <AlertTitle>No email was sent</AlertTitle>
      <AlertDescription>
        This server has no mail server configured, so {what} was not sent: it is {KEPT_MAIL_WHERE}.
      </AlertDescription>
    </Alert>
  );
}

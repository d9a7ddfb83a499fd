import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';

import { getDeployment, useDeploymentQuery } from '@/data/deployment/deployment-query';
import { deploymentKeys } from '@/data/deployment/keys';

/**
 * Whether this server sends no email (no mail server configured): each one is printed in the
 * server's log instead, and pages that say "we sent you an email" must say that.
 */
export function useMailKeptInLog(): boolean {
  const { data } = useDeploymentQuery();
  return data?.mail.delivery === 'server-log';
}

/**
 * The same as a question a mutation's callback asks when it answers (and waits for, if the
 * server has not said yet), so a toast is right however fast the mutation was.
 */
export function useMailKeptInLogCheck(): () => Promise<boolean> {
  const queryClient = useQueryClient();
  return React.useCallback(async () => {
    try {
      const deployment = await queryClient.ensureQueryData({
        queryKey: deploymentKeys.all,
        queryFn: ({ signal }) => getDeployment(signal),
      });
      return deployment.mail.delivery === 'server-log';
    } catch {
      return false;
    }
  }, [queryClient]);
}

/** Where a kept email is, in the words pages and toasts use. */
export const KEPT_MAIL_WHERE =
  'printed, with its link, in the server’s log (the terminal where Cumulus was started); staff can also read it on the Staff page';

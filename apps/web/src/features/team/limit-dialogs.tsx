import { GaugeIcon } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { Organization } from '@/data/organizations/organization-query';
import { paths } from '@/lib/paths';
import { TEAM_MESSAGES } from '@/lib/team/messages';
import { seatsAllowed } from '@/lib/team/permissions';

type LimitDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organization: Pick<
    Organization,
    'id' | 'featureTier' | 'memberLimit' | 'seatLimit' | 'memberCount' | 'pendingInviteCount'
  >;
  isOrganizationAdmin: boolean;
};

/** Who may change the plan, and how. */
function PlanAdvice({
  organization,
  isOrganizationAdmin,
}: Pick<LimitDialogProps, 'organization' | 'isOrganizationAdmin'>) {
  if (organization.featureTier === 'enterprise')
    return <p className="text-muted-foreground text-sm">{TEAM_MESSAGES.contactEnterprise}</p>;
  if (!isOrganizationAdmin)
    return <p className="text-muted-foreground text-sm">{TEAM_MESSAGES.contactAdmin}</p>;
  return null;
}

function LimitDialog({
  title,
  message,
  open,
  onOpenChange,
  organization,
  isOrganizationAdmin,
}: LimitDialogProps & { title: string; message: string }) {
  const canUpgrade = isOrganizationAdmin && organization.featureTier !== 'enterprise';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <div className="bg-warning/10 text-warning mb-2 flex size-10 items-center justify-center rounded-lg">
            <GaugeIcon className="size-5" aria-hidden="true" />
          </div>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{message}</DialogDescription>
        </DialogHeader>
        <PlanAdvice organization={organization} isOrganizationAdmin={isOrganizationAdmin} />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Not now</Button>
          </DialogClose>
          {canUpgrade ? (
            <Button asChild>
              <Link to={`${paths.billing}?account=${organization.id}`}>See plans</Link>
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Members plus pending invites have reached the plan's member limit. */
export function MemberLimitDialog(props: LimitDialogProps) {
  const { organization } = props;
  const used = organization.memberCount + organization.pendingInviteCount;
  return (
    <LimitDialog
      {...props}
      title="Member Limit Reached"
      message={TEAM_MESSAGES.memberLimit(used, seatsAllowed(organization) ?? used)}
    />
  );
}

/** The organization has as many workspaces as its plan allows. */
export function WorkspaceLimitDialog(props: LimitDialogProps) {
  return <LimitDialog {...props} title="Workspace Limit Reached" message={TEAM_MESSAGES.workspaceLimit} />;
}

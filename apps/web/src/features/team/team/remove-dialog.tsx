import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';

type RemoveDialogProps = {
  removal: { kind: 'member' | 'invite'; name: string } | null;
  organizationName: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before a member leaves the organization (and all its workspaces) or an invite is deleted. */
export function RemoveDialog({ removal, organizationName, pending, onConfirm, onCancel }: RemoveDialogProps) {
  return (
    <AlertDialog open={removal !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            {removal?.kind === 'invite' ? 'Delete invitation?' : `Remove ${removal?.name ?? ''}?`}
          </AlertDialogTitle>
          <AlertDialogDescription>
            {removal?.kind === 'invite'
              ? `The invitation to ${removal.name} will no longer be accepted.`
              : `${removal?.name ?? ''} will lose access to ${organizationName} and all of its workspaces.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={pending} onClick={onConfirm}>
            {removal?.kind === 'invite' ? 'Delete invitation' : 'Remove'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

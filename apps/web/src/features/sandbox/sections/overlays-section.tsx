import {
  BuildingIcon,
  ChevronDownIcon,
  LogOutIcon,
  PanelRightIcon,
  UserPlusIcon,
  UsersIcon,
} from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';

import { FormField } from '@/components/form-field';
import { PageSection } from '@/components/page';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from '@/components/ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

function CreateWorkspaceDialog() {
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState('');

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>Open dialog</Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Create Workspace</DialogTitle>
          <DialogDescription>Workspace names are unique, 4 to 34 characters.</DialogDescription>
        </DialogHeader>
        <form
          id="create-workspace"
          onSubmit={(event) => {
            event.preventDefault();
            setOpen(false);
            toast.success('Workspace created');
          }}
        >
          <FormField label="Workspace name">
            <Input value={name} onChange={(event) => setName(event.target.value)} autoFocus />
          </FormField>
        </form>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" form="create-workspace" disabled={name.length < 4}>
            Create
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function OverlaysSection() {
  return (
    <PageSection id="overlays" title="Overlays" description="Dialogs, menus, popovers, tooltips and sheets.">
      <div className="bg-card flex flex-wrap items-center gap-3 rounded-xl border p-6">
        <CreateWorkspaceDialog />
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button variant="outline">Alert dialog</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Remove member?</AlertDialogTitle>
              <AlertDialogDescription>
                ada will lose access to every workspace in this organization.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction onClick={() => toast.error('Error: member could not be removed')}>
                Remove
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline">
              Add
              <ChevronDownIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" className="w-48">
            <DropdownMenuLabel>Add to organization</DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem>
              <UserPlusIcon />
              Teammate
            </DropdownMenuItem>
            <DropdownMenuItem>
              <UsersIcon />
              Workspace
            </DropdownMenuItem>
            <DropdownMenuItem>
              <BuildingIcon />
              Organization
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive">
              <LogOutIcon />
              Log out
              <DropdownMenuShortcut>⇧⌘Q</DropdownMenuShortcut>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
        <Popover>
          <PopoverTrigger asChild>
            <Button variant="outline">Popover</Button>
          </PopoverTrigger>
          <PopoverContent className="space-y-1.5">
            <p className="text-sm font-medium">Scheduler address</p>
            <p className="text-muted-foreground font-mono text-xs">tls://10.0.4.17:8786</p>
          </PopoverContent>
        </Popover>
        <Tooltip>
          <TooltipTrigger asChild>
            <Button variant="ghost">Hover me</Button>
          </TooltipTrigger>
          <TooltipContent>You must be an organization admin to add workspaces.</TooltipContent>
        </Tooltip>
        <Sheet>
          <SheetTrigger asChild>
            <Button variant="outline">
              <PanelRightIcon />
              Sheet
            </Button>
          </SheetTrigger>
          <SheetContent>
            <SheetHeader>
              <SheetTitle>Cluster details</SheetTitle>
              <SheetDescription>A side panel for details that should not leave the list.</SheetDescription>
            </SheetHeader>
          </SheetContent>
        </Sheet>
      </div>
    </PageSection>
  );
}

import { ChevronsUpDownIcon, KeyRoundIcon } from 'lucide-react';
import * as React from 'react';

import { CopyButton } from '@/components/copy-button';
import { PageSection } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { ScrollArea } from '@/components/ui/scroll-area';
import { Separator } from '@/components/ui/separator';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

const MEMBERS = ['AL', 'GH', 'KJ', 'MS', 'RT', 'PW'];
const MAX_AVATARS = 4;
const LOG_LINES = Array.from({ length: 40 }, (_, i) => ({
  id: `log-${i}`,
  time: `2025-11-20 18:${String(i).padStart(2, '0')}:07`,
  message: i % 9 === 8 ? 'WARNING retrying pip download (1/3)' : `Installing package ${i + 1} of 40`,
}));

export function LayoutSection() {
  const [open, setOpen] = React.useState(false);
  const token = 'cumulus_9f3e1c0a7b2d4e6f8a1c3e5f7b9d0a2c';

  return (
    <PageSection
      id="layout"
      title="Layout"
      description="Cards, tabs, avatars, collapsibles and scroll areas."
    >
      <div className="grid gap-4 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>etl-nightly-1</CardTitle>
            <CardDescription>us-east-1 · 12 workers</CardDescription>
            <CardAction>
              <StateChip state="ready" />
            </CardAction>
          </CardHeader>
          <CardContent className="grid grid-cols-3 gap-4 text-sm">
            <div>
              <p className="text-muted-foreground text-xs">Cores</p>
              <p className="font-medium tabular-nums">96</p>
            </div>
            <div>
              <p className="text-muted-foreground text-xs">Memory</p>
              <p className="font-medium tabular-nums">384 GiB</p>
            </div>
            <div>
              <p className="text-muted-foreground text-xs">Credits</p>
              <p className="font-medium tabular-nums">1,204.5</p>
            </div>
          </CardContent>
          <CardFooter className="gap-2 border-t">
            <Button size="sm" variant="outline">
              Dashboard
            </Button>
            <Button size="sm" variant="ghost">
              Logs
            </Button>
          </CardFooter>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>API token</CardTitle>
            <CardDescription>Shown once. Copy it now.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="bg-muted/50 flex min-w-0 items-center gap-2 rounded-md border py-1 pr-1 pl-3">
              <KeyRoundIcon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
              <code className="min-w-0 flex-1 truncate font-mono text-xs">{token}</code>
              <CopyButton value={token} label="Copy token" />
            </div>
            <div className="flex items-center gap-3">
              <div className="flex -space-x-2">
                {MEMBERS.slice(0, MAX_AVATARS).map((initials) => (
                  <Avatar key={initials} className="ring-card size-7 ring-2">
                    <AvatarFallback className="text-[10px]">{initials}</AvatarFallback>
                  </Avatar>
                ))}
              </div>
              <span className="text-muted-foreground text-xs">+{MEMBERS.length - MAX_AVATARS} more</span>
            </div>
          </CardContent>
        </Card>
        <Card className="gap-4">
          <CardHeader>
            <CardTitle>Build logs</CardTitle>
            <CardDescription>Monospace, newest last.</CardDescription>
          </CardHeader>
          <CardContent>
            <ScrollArea className="h-40 rounded-md border">
              <div className="p-3 font-mono text-xs leading-relaxed">
                {LOG_LINES.map((line) => (
                  <p key={line.id} className="break-words">
                    <span className="text-muted-foreground">{line.time}</span> {line.message}
                  </p>
                ))}
              </div>
            </ScrollArea>
          </CardContent>
        </Card>
      </div>
      <div className="bg-card grid gap-6 rounded-xl border p-6 lg:grid-cols-2">
        <Tabs defaultValue="workspaces">
          <TabsList>
            <TabsTrigger value="workspaces">Workspaces</TabsTrigger>
            <TabsTrigger value="team">Team</TabsTrigger>
          </TabsList>
          <TabsContent value="workspaces" className="text-muted-foreground pt-2 text-sm">
            One expandable card per workspace.
          </TabsContent>
          <TabsContent value="team" className="text-muted-foreground pt-2 text-sm">
            Members and pending invites.
          </TabsContent>
        </Tabs>
        <Collapsible open={open} onOpenChange={setOpen} className="grid gap-2">
          <div className="flex items-center justify-between">
            <span className="text-sm font-medium">Advanced options</span>
            <CollapsibleTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label="Toggle advanced options">
                <ChevronsUpDownIcon />
              </Button>
            </CollapsibleTrigger>
          </div>
          <Separator />
          <CollapsibleContent className="text-muted-foreground grid gap-1 text-sm">
            <p>Worker VM types, spot fallback and idle timeout go here.</p>
          </CollapsibleContent>
        </Collapsible>
      </div>
    </PageSection>
  );
}

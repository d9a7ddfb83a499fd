import { Link } from 'react-router';

import { Page, PageHeader } from '@/components/page';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { readSidebarCookie, SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { Toaster } from '@/components/ui/sonner';
import { paths } from '@/lib/paths';

import { SandboxSidebar } from './sandbox-sidebar';
import { BadgesSection } from './sections/badges-section';
import { ButtonsSection } from './sections/buttons-section';
import { FeedbackSection } from './sections/feedback-section';
import { FormsSection } from './sections/forms-section';
import { LayoutSection } from './sections/layout-section';
import { OverlaysSection } from './sections/overlays-section';
import { TableSection } from './sections/table-section';

/** Public showcase of the UI kit (spec: /component-sandbox, "button showcase"). */
export function ComponentSandboxPage() {
  return (
    <SidebarProvider defaultOpen={readSidebarCookie()}>
      <title>Component sandbox · Cumulus</title>
      <SandboxSidebar />
      <SidebarInset>
        <header className="bg-background/80 sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b px-4 backdrop-blur">
          <SidebarTrigger className="-ml-1" />
          <Separator orientation="vertical" className="mr-2 data-[orientation=vertical]:h-4" />
          <Breadcrumb>
            <BreadcrumbList>
              <BreadcrumbItem>
                <BreadcrumbLink asChild>
                  <Link to={paths.root}>Cumulus</Link>
                </BreadcrumbLink>
              </BreadcrumbItem>
              <BreadcrumbSeparator />
              <BreadcrumbItem>
                <BreadcrumbPage>Component sandbox</BreadcrumbPage>
              </BreadcrumbItem>
            </BreadcrumbList>
          </Breadcrumb>
        </header>
        <Page className="gap-12">
          <PageHeader
            title="Component sandbox"
            description="The console's building blocks, on the dark theme. Press Ctrl/Cmd+B to collapse the sidebar."
            actions={
              <Button asChild variant="outline" size="sm">
                <Link to={`${paths.componentSandbox}/auth-card`}>Auth card preview</Link>
              </Button>
            }
          />
          <ButtonsSection />
          <BadgesSection />
          <FormsSection />
          <OverlaysSection />
          <TableSection />
          <FeedbackSection />
          <LayoutSection />
        </Page>
      </SidebarInset>
      <Toaster position="bottom-right" />
    </SidebarProvider>
  );
}

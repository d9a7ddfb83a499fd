import { useSearchParams } from 'react-router';

import { Page, PageHeader } from '@/components/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ClustersTab } from '@/features/staff/clusters-tab';
import { InteractionsTab } from '@/features/staff/interactions-tab';
import { MailTab } from '@/features/staff/mail-tab';
import { OrganizationsTab } from '@/features/staff/organizations-tab';
import { readStaffTab, STAFF_TABS, type StaffTab, writeStaffTab } from '@/features/staff/search-params';
import { SsoDomainsTab } from '@/features/staff/sso-domains-tab';
import { UsersTab } from '@/features/staff/users-tab';
import { usePageMeta } from '@/lib/page-meta';

const TAB_CONTENT: Record<StaffTab, () => React.ReactNode> = {
  users: UsersTab,
  organizations: OrganizationsTab,
  clusters: ClustersTab,
  'sso-domains': SsoDomainsTab,
  mail: MailTab,
  interactions: InteractionsTab,
};

/**
 * The staff area (staff only; StaffOnly tells everyone else so): users, organizations, clusters
 * needing attention, SSO domains waiting for a decision, the mail outbox and user interactions,
 * one tab each, the tab in the URL.
 */
export function StaffPage() {
  const [params, setParams] = useSearchParams();
  const tab = readStaffTab(params);
  const label = STAFF_TABS.find((candidate) => candidate.id === tab)?.label ?? 'Users';
  usePageMeta({ title: `Staff · ${label}`, breadcrumbs: [{ label: 'Staff' }, { label }] });
  const Content = TAB_CONTENT[tab];

  return (
    <Page>
      <PageHeader
        title="Staff"
        description="Users, organizations, failed clusters, SSO domains to decide on, mail and what users did."
      />
      <Tabs
        value={tab}
        onValueChange={(next) => setParams(writeStaffTab(next as StaffTab))}
        className="gap-4"
      >
        {/* Six tabs are wider than a phone: the list scrolls sideways on its own, not the page. */}
        <div className="-mx-4 overflow-x-auto px-4 md:mx-0 md:px-0">
          <TabsList>
            {STAFF_TABS.map((candidate) => (
              <TabsTrigger key={candidate.id} value={candidate.id} className="px-3">
                {candidate.label}
              </TabsTrigger>
            ))}
          </TabsList>
        </div>
        <TabsContent value={tab}>
          <Content />
        </TabsContent>
      </Tabs>
    </Page>
  );
}

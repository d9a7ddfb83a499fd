import { JobsList } from '@/components/jobs/jobs-list';
import { Page, PageHeader } from '@/components/page';
import { usePageMeta } from '@/lib/page-meta';

/** Batch Jobs (`/batch/jobs`, staff only): the jobs of every workspace the caller reads. */
export function BatchJobsPage() {
  usePageMeta({ title: 'Batch Jobs', breadcrumbs: [{ label: 'Batch Jobs' }] });
  return (
    <Page>
      <PageHeader title="Batch Jobs" description="Batch jobs of every workspace you can read, newest first" />
      <JobsList workspace={undefined} scopeLabel="your workspaces" showWorkspace />
    </Page>
  );
}

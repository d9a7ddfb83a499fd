import { ListChecksIcon } from 'lucide-react';
import { Link } from 'react-router';

import { useClusterJobsQuery } from '@/data/jobs/cluster-jobs-query';
import { jobLink } from '@/lib/jobs/links';

/** On a batch cluster's page: "Batch job N", a link to each job it runs (nothing for other clusters). */
export function ClusterJobLinks({ clusterId }: { clusterId: number }) {
  const jobs = useClusterJobsQuery({ clusterId });
  return (jobs.data ?? []).map((job) => (
    <Link
      key={job.id}
      to={jobLink(job.id)}
      className="text-primary inline-flex items-center gap-1 text-sm font-medium underline-offset-4 hover:underline"
    >
      <ListChecksIcon className="size-4" aria-hidden="true" />
      Batch job {job.id}
    </Link>
  ));
}

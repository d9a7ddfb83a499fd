import { DownloadIcon } from 'lucide-react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useJobOutputFilesQuery } from '@/data/jobs/job-output-files-query';
import { formatBytes } from '@/lib/format';

/**
 * What the job's tasks wrote into its output filestores (`cumulus batch run --download`), each
 * file with its download link. Nothing is shown for jobs without output filestores.
 */
export function JobOutputFiles({ jobId, live }: { jobId: number; live: boolean }) {
  const files = useJobOutputFilesQuery({ id: jobId }, { refetchInterval: live ? 5_000 : false });
  const list = files.data?.files ?? [];
  if (list.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Output files</CardTitle>
        <CardDescription>
          What the tasks wrote under <code className="font-mono text-xs">output/</code>, kept after the
          cluster stopped.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Output files" className="grid gap-1.5 text-sm">
          {list.map((file) => (
            <li key={`${file.filestore}/${file.relativePath}`} className="flex min-w-0 items-center gap-3">
              <a
                href={file.url}
                download={file.relativePath.split('/').at(-1)}
                className="inline-flex min-w-0 items-center gap-1.5 text-primary hover:underline"
              >
                <DownloadIcon aria-hidden="true" className="size-3.5 shrink-0" />
                <span className="truncate font-mono text-xs">{file.relativePath}</span>
              </a>
              <span className="shrink-0 text-muted-foreground text-xs">{formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

import { KeyRoundIcon } from 'lucide-react';
import { CodeBlock } from '@/components/code-block';
import { Fact } from '@/components/fact';
import { TimeAgo } from '@/components/time-ago';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { JobDetails } from '@/data/jobs/job-query';
import { durationInWords } from '@/lib/format';

const Muted = ({ children }: { children: string }) => (
  <span className="text-muted-foreground">{children}</span>
);

/** What each task runs: the command, and the host setup run before it. */
export function JobCommand({ job }: { job: JobDetails }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Command</CardTitle>
        <CardDescription>
          Each task runs it with its own <code className="font-mono text-xs">CUMULUS_BATCH_TASK_ID</code>.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <CodeBlock code={job.userCommand} label="Shell" copyLabel="Copy command" />
        {job.hostSetup ? (
          <CodeBlock code={job.hostSetup} label="Host setup" copyLabel="Copy host setup" />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The variables every task gets: plain ones with their values, secret ones by name only. */
export function JobEnvironment({ job }: { job: JobDetails }) {
  const plain = Object.entries(job.envVars);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Environment variables</CardTitle>
        <CardDescription>Secret values are sealed on the server and never shown.</CardDescription>
      </CardHeader>
      <CardContent>
        {plain.length === 0 && job.secretEnvVarNames.length === 0 ? (
          <p className="text-muted-foreground text-sm">None besides Cumulus' own.</p>
        ) : (
          <ul aria-label="Environment variables" className="grid gap-1.5 font-mono text-xs">
            {plain.map(([name, value]) => (
              <li key={name} className="break-all">
                {name}
                <span className="text-muted-foreground">=</span>
                {value}
              </li>
            ))}
            {job.secretEnvVarNames.map((name) => (
              <li key={name} className="flex flex-wrap items-center gap-2 break-all">
                {name}
                <Badge variant="outline" className="gap-1 font-sans">
                  <KeyRoundIcon aria-hidden="true" />
                  secret
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** How the job runs: when, its limits, where, and what it keeps. */
export function JobSettings({ job }: { job: JobDetails }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Settings</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">
          <Fact label="Started">
            {job.started ? (
              <TimeAgo value={job.started} />
            ) : (
              <Muted>{job.finished ? 'Never' : 'Not yet'}</Muted>
            )}
          </Fact>
          <Fact label="Completed">
            {job.completed ? <TimeAgo value={job.completed} /> : <Muted>Not yet</Muted>}
          </Fact>
          <Fact label="Timeout">
            {job.timeoutSeconds ? durationInWords(job.timeoutSeconds) : <Muted>None</Muted>}
          </Fact>
          <Fact label="Max retries">{job.maxRetries}</Fact>
          <Fact label="Task limit">
            {job.maxConcurrentTasks ? `${job.maxConcurrentTasks} at once` : <Muted>None</Muted>}
          </Fact>
          <Fact label="Workdir">
            {job.workdir ? (
              <code className="font-mono text-xs break-all">{job.workdir}</code>
            ) : (
              <Muted>Default</Muted>
            )}
          </Fact>
          {/* What each task prints (pipe_to_files); the files tasks write are the Output files card's. */}
          <Fact label="Task output as files">
            {job.pipeToFiles ? 'Yes: a file for each task' : <Muted>No: in the logs only</Muted>}
          </Fact>
          <Fact label="Files">
            {job.files.length ? (
              <ul className="grid gap-1 font-mono text-xs">
                {job.files.map((file) => (
                  <li key={file} className="break-all">
                    {file}
                  </li>
                ))}
              </ul>
            ) : (
              <Muted>None</Muted>
            )}
          </Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

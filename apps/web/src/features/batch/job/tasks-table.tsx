import { DownloadIcon, ScrollTextIcon } from 'lucide-react';
import { toast } from 'sonner';
import { PlainTable } from '@/components/plain-table';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import type { JobTask } from '@/data/jobs/job-query';
import { getTaskOutput, taskOutputFileName } from '@/data/jobs/task-output';
import { serverMessage } from '@/lib/api/errors';
import { saveText } from '@/lib/download';
import { formatBytes, formatDuration } from '@/lib/format';
import { elapsedSeconds } from '@/lib/jobs/states';
import { cn } from '@/lib/utils';

const HEADERS = ['Task', 'State', 'Exit code', 'Duration', 'Instance', 'Retries', 'Reason', ''];
const NONE = <span className="text-muted-foreground">—</span>;

async function downloadOutput(jobId: number, task: JobTask) {
  try {
    const text = await getTaskOutput({ jobId, arrayTaskId: task.arrayTaskId });
    saveText(taskOutputFileName(jobId, task.arrayTaskId), text);
  } catch (error) {
    toast.error(`Could not download the output of task ${task.arrayTaskId}`, {
      description: serverMessage(error),
    });
  }
}

type TasksTableProps = {
  jobId: number;
  tasks: JobTask[];
  /** The array task id whose logs are open. */
  openTask: number | null;
  onLogs: (arrayTaskId: number) => void;
};

/** Every task of the job: how it went, where it ran, and its logs and kept output. */
export function TasksTable({ jobId, tasks, openTask, onLogs }: TasksTableProps) {
  return (
    <PlainTable headers={HEADERS}>
      {tasks.map((task) => {
        const seconds = elapsedSeconds(task.start, task.stop);
        return (
          <TableRow key={task.id} data-state={task.arrayTaskId === openTask ? 'selected' : undefined}>
            <TableCell className="px-4 font-mono tabular-nums">{task.arrayTaskId}</TableCell>
            <TableCell className="px-4">
              <StateChip state={task.state} title={task.reason || undefined} />
            </TableCell>
            <TableCell
              className={cn('px-4 font-mono tabular-nums', task.exitCode ? 'text-destructive' : undefined)}
            >
              {task.exitCode ?? NONE}
            </TableCell>
            <TableCell className="text-muted-foreground px-4 tabular-nums">
              {seconds === null ? '—' : formatDuration(seconds)}
            </TableCell>
            <TableCell className="px-4">
              {task.assignedTo ? (
                <span
                  className="block max-w-48 truncate font-mono text-xs"
                  title={task.assignedTo.privateIpAddress ?? task.assignedTo.name}
                >
                  {task.assignedTo.name}
                </span>
              ) : (
                NONE
              )}
            </TableCell>
            <TableCell className="px-4 tabular-nums">{task.retries}</TableCell>
            <TableCell className="text-muted-foreground px-4">
              <span className="block max-w-64 truncate" title={task.reason || undefined}>
                {task.reason || '—'}
              </span>
            </TableCell>
            <TableCell className="px-4 py-1.5">
              <div className="flex justify-end gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Logs of task ${task.arrayTaskId}`}
                  aria-pressed={task.arrayTaskId === openTask}
                  onClick={() => onLogs(task.arrayTaskId)}
                >
                  <ScrollTextIcon />
                  Logs
                </Button>
                {task.outputBytes !== null ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Output of task ${task.arrayTaskId}`}
                    title={`Download its output (${formatBytes(task.outputBytes)})`}
                    onClick={() => void downloadOutput(jobId, task)}
                  >
                    <DownloadIcon />
                    Output
                  </Button>
                ) : null}
              </div>
            </TableCell>
          </TableRow>
        );
      })}
    </PlainTable>
  );
}

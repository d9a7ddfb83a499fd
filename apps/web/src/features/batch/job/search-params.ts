import * as React from 'react';
import { useSearchParams } from 'react-router';

// The job page's URL state: `task`, the array task id whose logs are open (absent: none is).

const TASK_PARAM = 'task';

export function parseOpenTask(search: URLSearchParams): number | null {
  const raw = search.get(TASK_PARAM);
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** The task whose logs are open, and a setter that keeps the rest of the URL. */
export function useOpenTask(): [number | null, (task: number | null) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const open = parseOpenTask(searchParams);
  const setOpen = React.useCallback(
    (task: number | null) =>
      setSearchParams(
        (current) => {
          const out = new URLSearchParams(current);
          if (task === null) out.delete(TASK_PARAM);
          else out.set(TASK_PARAM, String(task));
          return out;
        },
        { replace: true },
      ),
    [setSearchParams],
  );
  return [open, setOpen];
}

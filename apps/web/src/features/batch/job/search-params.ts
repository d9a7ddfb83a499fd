import * as React from 'react';
import { useSearchParams } from 'react-router';

import { param, searchParams, wholeNumber } from '@/lib/search-params';

// The job page's URL state: `task`, the array task id whose logs are open (absent: none is).

const jobParams = searchParams({ task: param<number | null>('task', wholeNumber({ digits: 9 }), null) });

export const parseOpenTask = (search: URLSearchParams): number | null => jobParams.parse(search).task;

/** The task whose logs are open, and a setter that keeps the rest of the URL. */
export function useOpenTask(): [number | null, (task: number | null) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const open = parseOpenTask(searchParams);
  const setOpen = React.useCallback(
    (task: number | null) =>
      setSearchParams((current) => jobParams.write(current, { task }), { replace: true }),
    [setSearchParams],
  );
  return [open, setOpen];
}

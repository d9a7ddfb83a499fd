import { describe, expect, it } from 'vitest';

import { ApiError, serverMessage } from '@/lib/api/errors';
import { showServerErrors } from '@/lib/forms';

// The create call's answer on a two-core machine (hardware.ts): a field error and nothing else.
const cores = "This server's machine has 2 cores: a worker can run at most 2 threads (16 asked).";
const refused = () => ApiError.fromResponse(400, { 'worker_options.nthreads': [cores] });

type Values = { workerCores: string; name: string };

function recorder() {
  const set: Array<[string, string | undefined]> = [];
  const setError = (field: string, error: { message?: string }) => void set.push([field, error.message]);
  return { set, setError: setError as Parameters<typeof showServerErrors<Values>>[0] };
}

describe('server errors on forms', () => {
  it('a field error the form has a field for goes to that field, and nothing above the form', () => {
    const { set, setError } = recorder();
    const general = showServerErrors<Values>(setError, refused(), {
      'worker_options.nthreads': 'workerCores',
      name: 'name',
    });
    expect(set).toEqual([['workerCores', cores]]);
    expect(general).toBeNull();
  });

  it('a field error no field shows is the message above the form, not the unknown error', () => {
    const { set, setError } = recorder();
    expect(showServerErrors<Values>(setError, refused(), ['name'])).toBe(cores);
    expect(set).toEqual([]);
    expect(serverMessage(refused())).toBe(cores);
  });

  it('a general message stays the general message; a failure with no words is the kind’s text', () => {
    const { setError } = recorder();
    const conflict = ApiError.fromResponse(403, {
      detail: 'Over your core limit',
      code: 'CORE_LIMIT_EXCEEDED',
    });
    expect(showServerErrors<Values>(setError, conflict, ['name'])).toBe('Over your core limit');
    expect(showServerErrors<Values>(setError, ApiError.fromResponse(500, {}), ['name'])).toBe(
      'An unknown error occurred',
    );
  });
});

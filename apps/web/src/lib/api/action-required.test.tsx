import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CONFIRM_FALLBACK_MESSAGE, useActionRequiredMutation } from '@/lib/api/action-required';
import { ApiError } from '@/lib/api/errors';
import { renderPage } from '@/test/render';

type Call = (variables: string, confirm: boolean) => Promise<string>;

function Harness({ call }: { call: Call }) {
  const mutation = useActionRequiredMutation({ mutationFn: call });
  return (
    <>
      <button type="button" onClick={() => mutation.mutate('go')}>
        Run
      </button>
      {mutation.isSuccess ? <p>Done: {mutation.data}</p> : null}
      {mutation.dialog}
    </>
  );
}

describe('useActionRequiredMutation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks on actionRequired confirm, then repeats the call with confirm=true', async () => {
    const call = vi
      .fn<Call>()
      .mockRejectedValueOnce(
        ApiError.fromResponse(409, { actionRequired: 'confirm', detail: 'Replace the credentials?' }),
      )
      .mockResolvedValueOnce('saved');
    renderPage(<Harness call={call} />);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Replace the credentials?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Done: saved')).toBeInTheDocument();
    expect(call.mock.calls).toEqual([
      ['go', false],
      ['go', true],
    ]);
  });

  it('treats an unreadable 409 as confirm before confirm was sent', async () => {
    const call = vi.fn<Call>().mockRejectedValueOnce(ApiError.fromResponse(409, undefined));
    renderPage(<Harness call={call} />);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText(CONFIRM_FALLBACK_MESSAGE)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText(CONFIRM_FALLBACK_MESSAGE)).not.toBeInTheDocument());
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('waits 3 s on actionRequired retry, showing a disabled Waiting... button, then repeats', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const call = vi
      .fn<Call>()
      .mockRejectedValueOnce(
        ApiError.fromResponse(409, { actionRequired: 'retry', detail: 'Still working.' }),
      )
      .mockResolvedValueOnce('done');
    renderPage(<Harness call={call} />);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Still working.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Waiting...' })).toBeDisabled();
    expect(call).toHaveBeenCalledTimes(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(await screen.findByText('Done: done')).toBeInTheDocument();
    expect(call).toHaveBeenLastCalledWith('go', true);
  });

  it('lets an ordinary conflict through as an error', async () => {
    const call = vi
      .fn<Call>()
      .mockRejectedValueOnce(ApiError.fromResponse(409, { detail: 'That username already exists.' }));
    renderPage(<Harness call={call} />);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api/errors';

// The 409 "action required" protocol.
export const ACTION_RETRY_DELAY_MS = 3_000;
export const RETRY_FALLBACK_MESSAGE = 'Operation in progress, please wait.';
export const CONFIRM_FALLBACK_MESSAGE = 'Confirmation required to proceed with this action.';
/** A server that keeps answering "retry" is given up on after this many rounds (about 5 minutes). */
const MAX_RETRY_ROUNDS = 100;

/** The user dismissed the confirmation: the mutation ends without having changed anything. */
export class ActionCancelledError extends Error {
  override readonly name = 'ActionCancelledError';
  constructor() {
    super('Cancelled');
  }
}

type Prompt = { mode: 'confirm' | 'retry'; message: string; answer?: (confirmed: boolean) => void };

type Options<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'> & {
  /** The call; `confirm` is true on the repeat after a confirmation or a retry answer. */
  mutationFn: (variables: TVariables, confirm: boolean) => Promise<TData>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A mutation that follows the 409 protocol: `actionRequired: 'confirm'` asks the user, then
 * repeats the call with confirm=true; `'retry'` shows a disabled "Waiting..." dialog and repeats
 * after 3 s. A 409 without a readable body counts as retry once confirm was sent, else confirm.
 * Render the returned `dialog` next to whatever triggers the mutation.
 */
export function useActionRequiredMutation<TData, TVariables = void>({
  mutationFn,
  ...options
}: Options<TData, TVariables>) {
  const [prompt, setPrompt] = React.useState<Prompt | null>(null);

  const mutation = useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn: async (variables) => {
      let confirm = false;
      try {
        for (let round = 0; ; round++) {
          try {
            return await mutationFn(variables, confirm);
          } catch (error) {
            if (!isApiError(error) || error.kind !== 'conflict' || round >= MAX_RETRY_ROUNDS) throw error;
            const readable = error.body !== undefined;
            if (readable && !error.actionRequired) throw error; // an ordinary conflict
            const mode = error.actionRequired ?? (confirm ? 'retry' : 'confirm');
            const message =
              error.detail ?? (mode === 'retry' ? RETRY_FALLBACK_MESSAGE : CONFIRM_FALLBACK_MESSAGE);
            if (mode === 'confirm') {
              const confirmed = await new Promise<boolean>((answer) => setPrompt({ mode, message, answer }));
              if (!confirmed) throw new ActionCancelledError();
            } else {
              setPrompt({ mode, message });
              await sleep(ACTION_RETRY_DELAY_MS);
            }
            confirm = true;
          }
        }
      } finally {
        setPrompt(null);
      }
    },
  });

  const answer = (confirmed: boolean) => {
    prompt?.answer?.(confirmed);
    setPrompt(null);
  };

  const dialog = (
    <AlertDialog
      open={prompt !== null}
      onOpenChange={(open) => !open && prompt?.mode === 'confirm' && answer(false)}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{prompt?.mode === 'retry' ? 'Please wait' : 'Are you sure?'}</AlertDialogTitle>
          <AlertDialogDescription>{prompt?.message}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          {prompt?.mode === 'retry' ? (
            <Button disabled>
              <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
              Waiting...
            </Button>
          ) : (
            <>
              <AlertDialogCancel onClick={() => answer(false)}>Cancel</AlertDialogCancel>
              <AlertDialogAction onClick={() => answer(true)}>Confirm</AlertDialogAction>
            </>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );

  return { ...mutation, dialog };
}

import type * as React from 'react';

import { SubmitButton } from '@/components/submit-button';

/** The end of a Billing form: its error that belongs to no field, then its submit button. */
export function FormFooter({
  error,
  pending,
  children,
}: {
  error: string | undefined;
  pending: boolean;
  children: React.ReactNode;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
      <div>
        <SubmitButton pending={pending} className="w-auto">
          {children}
        </SubmitButton>
      </div>
    </>
  );
}

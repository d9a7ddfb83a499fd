import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';

import { Page, PageHeader } from '@/components/page';
import type { workspaceNameSchema } from '@/features/team/schemas';
import { isApiError } from '@/lib/api/errors';
import type { useZodForm } from '@/lib/forms';
import { errorText } from '@/lib/team/messages';

/** A create page: its title with an icon, what it makes, and the form in a card. */
export function CreateFrame({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Page className="max-w-xl">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <span className="bg-primary/10 text-primary flex size-9 items-center justify-center rounded-lg">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {title}
          </span>
        }
        description={description}
      />
      <div className="bg-card rounded-xl border p-6">{children}</div>
    </Page>
  );
}

/** A failed create: a message about the name goes on the field, anything else above the form. */
export function showCreateFailure(
  form: { setError: ReturnType<typeof useZodForm<typeof workspaceNameSchema>>['setError'] },
  setFormError: (message: string) => void,
  error: unknown,
  nameMessage = isApiError(error) ? error.fieldErrors('name')[0] : undefined,
) {
  if (nameMessage) form.setError('name', { type: 'server', message: nameMessage }, { shouldFocus: true });
  else setFormError(errorText(error));
}

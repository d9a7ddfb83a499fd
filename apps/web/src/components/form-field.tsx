import { Slot as SlotPrimitive } from 'radix-ui';
import * as React from 'react';

import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** Field errors arrive as `{"field": ["message", ...]}`; a single string is accepted too. */
export type FieldMessages = string | readonly string[] | null | undefined;

function toList(messages: FieldMessages): string[] {
  if (!messages) return [];
  return (typeof messages === 'string' ? [messages] : [...messages]).filter(Boolean);
}

type FormFieldProps = {
  label: React.ReactNode;
  /** Shown under the control while there is no error. */
  description?: React.ReactNode;
  error?: FieldMessages;
  /** Defaults to a generated id; the label and messages are tied to the control through it. */
  id?: string;
  className?: string;
  /** Exactly one control (Input, Textarea, SelectTrigger...); it receives id and aria attributes. */
  children: React.ReactElement;
};

/**
 * Label above, control, then the description or the error messages. Works with plain controlled
 * forms: pass the field's current error (client rule or server field error) as `error`.
 */
function FormField({ label, description, error, id, className, children }: FormFieldProps) {
  const generatedId = React.useId();
  const controlId = id ?? generatedId;
  const messages = toList(error);
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const describedBy = messages.length > 0 ? errorId : description ? descriptionId : undefined;

  return (
    <div
      data-slot="form-field"
      data-invalid={messages.length > 0 || undefined}
      className={cn('grid content-start gap-2', className)}
    >
      <Label htmlFor={controlId} className={cn(messages.length > 0 && 'text-destructive')}>
        {label}
      </Label>
      <SlotPrimitive.Slot
        id={controlId}
        aria-invalid={messages.length > 0 || undefined}
        aria-describedby={describedBy}
      >
        {children}
      </SlotPrimitive.Slot>
      {messages.length > 0 ? (
        <FieldError id={errorId} messages={messages} />
      ) : description ? (
        <p id={descriptionId} data-slot="form-field-description" className="text-muted-foreground text-xs">
          {description}
        </p>
      ) : null}
    </div>
  );
}

/** Error messages for one field (or a whole form), one line each. Renders nothing without messages. */
function FieldError({
  messages,
  id,
  className,
}: {
  messages: FieldMessages;
  id?: string;
  className?: string;
}) {
  const list = toList(messages);
  if (list.length === 0) return null;

  return (
    <div
      id={id}
      data-slot="field-error"
      role="alert"
      className={cn('text-destructive grid gap-0.5 text-xs', className)}
    >
      {list.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

export { FieldError, FormField };

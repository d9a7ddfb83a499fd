import { CircleAlertIcon, InfoIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import type * as React from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

export type BannerTone = 'info' | 'warning' | 'error';

const TONES: Record<BannerTone, { icon: typeof InfoIcon; classes: string }> = {
  info: { icon: InfoIcon, classes: 'border-info/25 bg-info/8 [&_[data-slot=banner-icon]]:text-info' },
  warning: {
    icon: TriangleAlertIcon,
    classes: 'border-warning/25 bg-warning/8 [&_[data-slot=banner-icon]]:text-warning',
  },
  error: {
    icon: CircleAlertIcon,
    classes: 'border-destructive/30 bg-destructive/8 [&_[data-slot=banner-icon]]:text-destructive',
  },
};

type BannerProps = {
  tone?: BannerTone;
  title: React.ReactNode;
  children?: React.ReactNode;
  /** A link or button shown on the right. */
  action?: React.ReactNode;
  onDismiss?: () => void;
  className?: string;
};

/** A full-width notice above the page: usage alerts, trials, announcements. */
export function Banner({ tone = 'info', title, children, action, onDismiss, className }: BannerProps) {
  const { icon: Icon, classes } = TONES[tone];
  return (
    <section
      data-slot="banner"
      data-tone={tone}
      aria-label={typeof title === 'string' ? title : undefined}
      className={cn(
        'flex flex-wrap items-start gap-x-3 gap-y-2 rounded-lg border px-4 py-3 text-sm',
        classes,
        className,
      )}
    >
      <Icon data-slot="banner-icon" className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-medium">{title}</p>
        {children ? <div className="text-muted-foreground">{children}</div> : null}
      </div>
      {/* On a phone the action goes on its own line under the text, not beside a narrow column. */}
      {action ? (
        <div className="shrink-0 self-center max-sm:order-last max-sm:basis-full max-sm:pl-7">{action}</div>
      ) : null}
      {onDismiss ? (
        <Button
          variant="ghost"
          size="icon-sm"
          className="-my-1 -mr-2 shrink-0"
          onClick={onDismiss}
          aria-label="Dismiss"
        >
          <XIcon aria-hidden="true" />
        </Button>
      ) : null}
    </section>
  );
}

import { CheckIcon, CopyIcon } from 'lucide-react';
import * as React from 'react';

import { Button } from '@/components/ui/button';
import { COPY_CONFIRMATION_MS } from '@/lib/constants';
import { cn } from '@/lib/utils';

type CopyButtonProps = Omit<React.ComponentProps<typeof Button>, 'value' | 'onClick' | 'children'> & {
  value: string;
  /** Accessible name before copying; "Copied" is announced afterwards. */
  label?: string;
  onCopied?: () => void;
};

/** Copies `value` and shows a check for 2 s (spec constant). Failures are only logged. */
function CopyButton({
  value,
  label = 'Copy',
  onCopied,
  variant = 'ghost',
  size = 'icon-sm',
  className,
  ...props
}: CopyButtonProps) {
  const [copied, setCopied] = React.useState(false);

  React.useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      onCopied?.();
    } catch (error) {
      console.warn('Copy to clipboard failed', error);
    }
  }

  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      data-copied={copied || undefined}
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      className={cn(
        'text-muted-foreground hover:text-foreground',
        copied && 'text-success hover:text-success',
        className,
      )}
      onClick={copy}
      {...props}
    >
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
    </Button>
  );
}

export { CopyButton };

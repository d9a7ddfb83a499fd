import { CopyButton } from '@/components/copy-button';
import { useScrollRegion } from '@/hooks/use-scroll-region';
import { cn } from '@/lib/utils';

type CodeBlockProps = {
  code: string;
  /** Shown above the code ("Python", "Terminal"). */
  label?: string;
  copyLabel?: string;
  /** Names the code as a scrollable region a keyboard can reach (long code, read rather than copied). */
  regionLabel?: string;
  className?: string;
};

/** A snippet to copy: monospace, scrolls sideways rather than wrapping, a copy button in its corner. */
export function CodeBlock({ code, label, copyLabel = 'Copy code', regionLabel, className }: CodeBlockProps) {
  // A short snippet that scrolls only on a phone is reachable by keyboard there (and only there).
  const scrollRegion = useScrollRegion<HTMLPreElement>(label ? `${label} code` : 'Code');
  return (
    <div
      data-slot="code-block"
      className={cn('bg-background/60 relative overflow-hidden rounded-lg border', className)}
    >
      {label ? (
        <div className="text-muted-foreground flex h-9 items-center justify-between border-b pr-1 pl-3 text-xs">
          <span className="font-medium">{label}</span>
          <CopyButton value={code} label={copyLabel} />
        </div>
      ) : (
        <CopyButton value={code} label={copyLabel} className="absolute top-1.5 right-1.5" />
      )}
      <pre
        ref={regionLabel ? undefined : scrollRegion}
        {...(regionLabel && { tabIndex: 0, role: 'region', 'aria-label': regionLabel })}
        className={cn(
          'focus-visible:ring-ring/50 overflow-x-auto p-3 font-mono text-[13px] leading-relaxed outline-none focus-visible:ring-[3px]',
          regionLabel && 'max-h-80',
          !label && 'pr-12',
        )}
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}

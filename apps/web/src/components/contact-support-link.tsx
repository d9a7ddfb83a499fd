import type * as React from 'react';

import { useLinks } from '@/hooks/use-links';

/** A mail link to this server's support address, or nothing when none is configured. */
export function ContactSupportLink({ children }: { children: React.ReactNode }) {
  const { supportMailto } = useLinks();
  if (!supportMailto) return null;
  return (
    <a href={supportMailto} className="text-primary hover:underline">
      {children}
    </a>
  );
}

import * as React from 'react';
import { useNavigate } from 'react-router';

/** Goes to `to` (replacing this page) `ms` after `when` turns true (3 s after a verified email, ...). */
export function useRedirectAfter(when: boolean, to: string, ms: number) {
  const navigate = useNavigate();
  React.useEffect(() => {
    if (!when) return;
    const timer = window.setTimeout(() => navigate(to, { replace: true }), ms);
    return () => window.clearTimeout(timer);
  }, [when, to, ms, navigate]);
}

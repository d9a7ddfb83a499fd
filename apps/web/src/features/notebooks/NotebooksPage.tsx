import { NotebookPenIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function NotebooksPage() {
  return (
    <PlaceholderPage
      title="Notebooks"
      description="Jupyter notebooks running on Cumulus clusters."
      icon={NotebookPenIcon}
    />
  );
}

import { SearchXIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';

type NotFoundStateProps = {
  /** "Cluster not found". */
  title: string;
  /** Where the way back leads, and what it says ("Back to the Dashboard"). */
  back: { to: string; label: string };
};

/**
 * A details page whose object the server does not show the user: it does not exist, or it is in a
 * workspace they are not in (the server answers both alike, so the page does too).
 */
export function NotFoundState({ title, back }: NotFoundStateProps) {
  return (
    <Page>
      <EmptyState
        icon={SearchXIcon}
        title={title}
        description="It does not exist, or it belongs to a workspace you are not a member of."
        action={
          <Button asChild variant="outline" size="sm">
            <Link to={back.to}>{back.label}</Link>
          </Button>
        }
      />
    </Page>
  );
}

import { Loader2Icon, PlusIcon, SettingsIcon, Trash2Icon } from 'lucide-react';

import { PageSection } from '@/components/page';
import { Button } from '@/components/ui/button';

const VARIANTS = ['default', 'secondary', 'outline', 'ghost', 'destructive', 'link'] as const;
const TEXT_SIZES = ['sm', 'default', 'lg'] as const;
const ICON_SIZES = ['icon-sm', 'icon', 'icon-lg'] as const;

export function ButtonsSection() {
  return (
    <PageSection id="buttons" title="Buttons" description="Every variant in every size.">
      <div className="bg-card overflow-x-auto rounded-xl border">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-muted-foreground border-b text-left text-xs">
              <th className="px-4 py-2.5 font-medium">Variant</th>
              {TEXT_SIZES.map((size) => (
                <th key={size} className="px-4 py-2.5 font-medium">
                  {size}
                </th>
              ))}
              {ICON_SIZES.map((size) => (
                <th key={size} className="px-4 py-2.5 font-medium">
                  {size}
                </th>
              ))}
              <th className="px-4 py-2.5 font-medium">disabled</th>
            </tr>
          </thead>
          <tbody>
            {VARIANTS.map((variant) => (
              <tr key={variant} className="border-b last:border-b-0">
                <td className="text-muted-foreground px-4 py-3 font-mono text-xs">{variant}</td>
                {TEXT_SIZES.map((size) => (
                  <td key={size} className="px-4 py-3">
                    <Button variant={variant} size={size}>
                      Button
                    </Button>
                  </td>
                ))}
                {ICON_SIZES.map((size) => (
                  <td key={size} className="px-4 py-3">
                    <Button variant={variant} size={size} aria-label="Settings">
                      <SettingsIcon />
                    </Button>
                  </td>
                ))}
                <td className="px-4 py-3">
                  <Button variant={variant} disabled>
                    Disabled
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button>
          <PlusIcon />
          Create Cluster
        </Button>
        <Button variant="outline" disabled>
          <Loader2Icon className="animate-spin" />
          Rebuilding...
        </Button>
        <Button variant="destructive">
          <Trash2Icon />
          Delete
        </Button>
        <Button variant="secondary" size="sm">
          Cancel
        </Button>
      </div>
    </PageSection>
  );
}

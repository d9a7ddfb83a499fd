/** The browser tab's title: "Profile · Cumulus". React hoists <title> into the document head. */
export function DocumentTitle({ title }: { title?: string | null }) {
  return <title>{title ? `${title} · Cumulus` : 'Cumulus'}</title>;
}

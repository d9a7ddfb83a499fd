/**
 * A table's actions column stays in view on a phone while the other columns scroll sideways
 * inside the table's card (the page itself never scrolls sideways): put it on the column's head
 * and cells.
 */
export const PINNED_ACTIONS =
  'max-sm:sticky max-sm:right-0 max-sm:z-10 max-sm:bg-card max-sm:shadow-[-12px_0_12px_-12px_rgb(0_0_0/0.9)]';

/** The same on the column's head, whose row is tinted (`bg-muted/40` over the card). */
export const PINNED_ACTIONS_HEAD = `${PINNED_ACTIONS} max-sm:bg-[color-mix(in_oklab,var(--muted)_40%,var(--card))]`;

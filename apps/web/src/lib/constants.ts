// The console's constants, named once so pages share them.

/** How long a copy button shows its confirmation. */
export const COPY_CONFIRMATION_MS = 2_000;

/** Server-paginated tables start on page 0 with 50 rows per page. */
export const DEFAULT_PAGE = 0;
export const DEFAULT_PAGE_SIZE = 50;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;

/** Auth form cards are exactly this wide. */
export const AUTH_CARD_WIDTH_PX = 312;

import * as React from 'react';

/** Marks a dialog of the shell's own (the welcome dialog): it waits for the page's dialogs. */
export const SHELL_DIALOG_ATTRIBUTE = 'data-shell-dialog';

const OPEN_DIALOGS = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

function pageDialogOpen(): boolean {
  return Array.from(document.querySelectorAll(OPEN_DIALOGS)).some(
    (dialog) => !dialog.closest(`[${SHELL_DIALOG_ATTRIBUTE}]`),
  );
}

/**
 * Whether a page's modal dialog is open (Radix marks open dialog content with its role and
 * `data-state="open"`). A shell dialog waits while one is: one modal at a time, and the one on
 * screen is the one that takes the clicks.
 */
export function usePageDialogOpen(): boolean {
  const [open, setOpen] = React.useState(pageDialogOpen);
  React.useEffect(() => {
    const observer = new MutationObserver(() => setOpen(pageDialogOpen()));
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-state', 'role'],
    });
    setOpen(pageDialogOpen());
    return () => observer.disconnect();
  }, []);
  return open;
}

import * as React from 'react';

/** Whether an element's content is wider or taller than the element: it scrolls. */
const overflows = (element: HTMLElement) =>
  element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;

/**
 * A ref for an element that may scroll (a wide table or code on a phone): while its content
 * overflows it is a region named `label` that the keyboard can reach (tabindex 0) and scroll with
 * the arrow keys (WCAG 2.1.1); while everything fits, it is no extra tab stop.
 */
export function useScrollRegion<T extends HTMLElement>(label: string) {
  return React.useCallback(
    (element: T | null) => {
      if (!element) return;
      const update = () => {
        if (!overflows(element)) {
          for (const name of ['tabindex', 'role', 'aria-label']) element.removeAttribute(name);
          return;
        }
        element.tabIndex = 0;
        element.setAttribute('role', 'region');
        element.setAttribute('aria-label', label);
      };
      const resized = new ResizeObserver(update);
      resized.observe(element);
      for (const child of element.children) resized.observe(child);
      // Rows arriving or text changing widen the content without resizing the element.
      const changed = new MutationObserver(update);
      changed.observe(element, { childList: true, subtree: true, characterData: true });
      update();
      return () => {
        resized.disconnect();
        changed.disconnect();
      };
    },
    [label],
  );
}

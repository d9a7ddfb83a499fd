import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Tests import from 'vitest' explicitly (no globals), so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom lacks these browser APIs; Radix and the sidebar's use-mobile hook read them.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// Radix Select scrolls its selected option into view when it opens.
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

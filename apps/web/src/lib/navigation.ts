/**
 * Leaving the console for another site (Stripe's checkout and billing portal). An object, so tests
 * can watch where the console sends the browser (jsdom does not navigate).
 */
export const externalNavigation = {
  leave(url: string): void {
    window.location.assign(url);
  },
};

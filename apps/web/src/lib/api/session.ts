import { useSyncExternalStore } from 'react';

import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';

/**
 * The signed-in session: the token calls carry, and whether the server has said it is no longer
 * valid (a 401 on a signed-in call). Kept outside React so the API client and the query cache
 * can read and change it.
 */
export type SessionState = {
  token: string | null;
  /** The server answered 401 to a signed-in call: the shell shows the logged-out message. */
  expired: boolean;
  /** The user logged out on purpose: login without a return-to. */
  loggedOut: boolean;
};

let state: SessionState = { token: readStored(STORAGE_KEYS.token), expired: false, loggedOut: false };
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  get: (): SessionState => state,
  token: (): string | null => state.token,
  signIn(token: string) {
    writeStored(STORAGE_KEYS.token, token);
    set({ token, expired: false, loggedOut: false });
  },
  /** Forgets the token: on logout (`loggedOut`), or 3 s after the logged-out message. */
  clear({ loggedOut = false }: { loggedOut?: boolean } = {}) {
    writeStored(STORAGE_KEYS.token, null);
    set({ token: null, expired: false, loggedOut });
  },
  /** The server answered 401 to a signed-in call: the shell shows the logged-out message. */
  expire() {
    if (state.token && !state.expired) set({ ...state, expired: true });
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

// Another tab signing in or out changes this tab's session too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.token) set({ token: event.newValue, expired: false, loggedOut: false });
  });
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

import { randomInt } from 'node:crypto';
import { safeEqual, sha256 } from '../../../lib/crypto.js';

/**
 * The short code of a terminal sign-in (OAuth device flow, RFC 8628 section 6.1): the terminal
 * prints it, the person approving in the browser types it, so the browser that approves is the
 * one in front of the terminal, not whoever was sent the link. Twenty consonants, no vowels (no
 * words) and nothing that reads as a digit; eight of them give 20^8 (about 2^34.6) codes, and
 * `MAX_CODE_ATTEMPTS` guesses per pending token.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;
export const MAX_CODE_ATTEMPTS = 5;

/** `BCDF-GHJK`: what the terminal prints. */
export function newUserCode(): string {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** Case, spaces and dashes do not matter when the code is typed. */
const normalize = (typed: string) => typed.toUpperCase().replace(/[^A-Z0-9]/g, '');

export const hashUserCode = (code: string) => sha256(normalize(code));

export const userCodeMatches = (typed: string, storedHash: string | null) =>
  storedHash !== null && safeEqual(hashUserCode(typed), storedHash);

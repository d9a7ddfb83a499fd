import { gunzipSync, inflateSync } from 'node:zlib';
import { badRequest } from './errors.js';

/** A compressed report may inflate to this much JSON, no more (a zip bomb stops here). */
const MAX_INFLATED = 32 * 1024 * 1024;

/** Gzip or zlib bytes (told apart by their magic numbers) to the JSON they hold. */
export function inflateJson(body: Buffer): unknown {
  let text: string;
  try {
    const options = { maxOutputLength: MAX_INFLATED };
    const inflated =
      body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body, options) : inflateSync(body, options);
    text = inflated.toString('utf8');
  } catch {
    throw badRequest('The body is not gzip or zlib compressed data (of at most 32 MB).', 'PARSE_ERROR');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The compressed body is not JSON.', 'PARSE_ERROR');
  }
}

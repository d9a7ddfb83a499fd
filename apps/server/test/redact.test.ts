import { describe, expect, it } from 'vitest';
import { withoutCredentials } from '../src/lib/redact.js';

describe('withoutCredentials', () => {
  it('hides the password or lone token of every URL in a text, as pip does, and keeps the rest', () => {
    expect(
      withoutCredentials(
        'Looking in indexes: file:///opt/pypi/simple, https://__token__:cu_s3cret@h:8000/simple/ and http://tok@idx/x',
      ),
    ).toBe(
      'Looking in indexes: file:///opt/pypi/simple, https://__token__:****@h:8000/simple/ and http://****@idx/x',
    );
    expect(withoutCredentials('user@example.com wrote https://example.com/a@b')).toBe(
      'user@example.com wrote https://example.com/a@b',
    );
  });
});

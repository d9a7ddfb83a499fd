import { describe, expect, it } from 'vitest';

import { setupError } from '@/features/setup/messages';
import { ApiError } from '@/lib/api/errors';

const refused = (field: string, message: string) => ApiError.fromResponse(400, { [field]: [message] });

describe('setupError', () => {
  it("names a refused field by the form's label, not the wire's path", () => {
    const error = refused('credentials.aws_access_key_id', 'Enter an AWS access key id.');
    expect(setupError(error, { aws_access_key_id: 'Access key ID' })).toBe(
      'Access key ID: Enter an AWS access key id.',
    );
  });

  it('writes an unlabelled field as words, without its path', () => {
    expect(setupError(refused('credentials.client_secret', 'Required.'))).toBe('Client secret: Required.');
  });
});

import * as React from 'react';

import { FormField } from '@/components/form-field';
import { Textarea } from '@/components/ui/textarea';
import { isApiError, serverMessage } from '@/lib/api/errors';

/**
 * A form's server errors: each field's (a list's come by item, `labels.1`, shown at the list), and
 * above the form what no field shows (the server's message, or an error of no field here).
 */
export function useServerErrors(error: unknown, fields: readonly string[]) {
  const errorsOf = (field: string): string[] => {
    if (!isApiError(error)) return [];
    return Object.entries(error.body ?? {})
      .filter(([key]) => key === field || key.startsWith(`${field}.`))
      .flatMap(([, v]) => (Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : []));
  };
  const atFields = fields.some((f) => errorsOf(f).length > 0);
  const general = !error
    ? null
    : isApiError(error) && atFields
      ? (error.detail ?? error.nonFieldErrors[0] ?? null)
      : serverMessage(error);
  return { errorsOf, general };
}

/** SHA256:... of a public key line, as `ssh-keygen -lf` prints it; null where it cannot be read. */
async function fingerprintOf(line: string): Promise<string | null> {
  const blob = line.trim().split(/\s+/)[1];
  if (!blob || !globalThis.crypto?.subtle) return null;
  try {
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return `SHA256:${btoa(String.fromCharCode(...digest)).replace(/=+$/, '')}`;
  } catch {
    return null;
  }
}

/**
 * The pinned host key (its fingerprint offered for comparison) and the private key. The private
 * key stays out of React state: only its textarea (`keyInput`) holds it, cleared by the form once sent.
 */
export function SshKeyFields({
  machine,
  hostKey,
  onHostKey,
  keyInput,
  onHasKey,
  errorsOf,
}: {
  /** `host`, `login node`: whose key it is. */
  machine: string;
  hostKey: string;
  onHostKey: (value: string) => void;
  keyInput: React.RefObject<HTMLTextAreaElement | null>;
  onHasKey: (has: boolean) => void;
  errorsOf: (field: string) => string[];
}) {
  const [fingerprint, setFingerprint] = React.useState<string | null>(null);
  React.useEffect(() => {
    let current = true;
    void fingerprintOf(hostKey).then((f) => {
      if (current) setFingerprint(f);
    });
    return () => {
      current = false;
    };
  }, [hostKey]);
  return (
    <>
      <FormField
        label="Host key"
        error={errorsOf('host_key')}
        description={
          <>
            The {machine}'s public key line, from the {machine} itself:{' '}
            <code>cat /etc/ssh/ssh_host_ed25519_key.pub</code>.
            {fingerprint ? (
              <>
                {' '}
                Its fingerprint is <code className="break-all">{fingerprint}</code>: compare it with{' '}
                <code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code> on the {machine}.
              </>
            ) : null}
          </>
        }
      >
        <Textarea
          rows={2}
          spellCheck={false}
          className="font-mono text-xs break-all"
          placeholder="ssh-ed25519 AAAA…"
          value={hostKey}
          onChange={(e) => onHostKey(e.target.value)}
        />
      </FormField>
      <FormField
        label="Private key"
        error={errorsOf('private_key')}
        description="An OpenSSH private key the user's authorized_keys lets in; kept encrypted and never shown again."
      >
        <Textarea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          className="font-mono text-xs"
          placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
          ref={keyInput}
          onChange={(e) => onHasKey(e.target.value !== '')}
        />
      </FormField>
    </>
  );
}

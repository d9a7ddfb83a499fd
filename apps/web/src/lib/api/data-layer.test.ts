import { describe, expect, it } from 'vitest';

import { camelize, toWire } from '@/lib/api/camelize';
import { ApiError, ERROR_MESSAGES, serverMessage } from '@/lib/api/errors';
import { retryDelay, shouldRetry } from '@/lib/api/query-client';

describe('camelize', () => {
  it('turns every wire key into camelCase, deeply, through arrays', () => {
    const wire = {
      full_name: 'Ada',
      default_account: { avatar_url: null, can_use_cumulus_hosted: true },
      workspace_memberships: [{ core_limit: 1000, is_admin: false }],
      cumulus_hosted_monthly_limit: 5,
    };
    const user = camelize(wire);
    expect(user).toEqual({
      fullName: 'Ada',
      defaultAccount: { avatarUrl: null, canUseCumulusHosted: true },
      workspaceMemberships: [{ coreLimit: 1000, isAdmin: false }],
      cumulusHostedMonthlyLimit: 5,
    });
    // The type follows: this line would not compile with the wire's names.
    expect(user.workspaceMemberships[0]?.coreLimit).toBe(1000);
  });

  it("keeps the user's own keys inside tags, environ, a job's env_vars and Dask options", () => {
    const cluster = camelize({
      desired_workers: 2,
      tags: { team_name: 'ml', 'cost-center': '7' },
      environ: { AWS_REGION: 'x' },
      scheduler_options: { idle_timeout: '20 minutes' },
    });
    expect(cluster).toEqual({
      desiredWorkers: 2,
      tags: { team_name: 'ml', 'cost-center': '7' },
      environ: { AWS_REGION: 'x' },
      schedulerOptions: { idle_timeout: '20 minutes' },
    });
    expect(camelize({ env_vars: { DATA_DIR: '/d' } })).toEqual({ envVars: { DATA_DIR: '/d' } });
    expect(toWire<{ worker_options: Record<string, number> }>({ workerOptions: { n_threads: 2 } })).toEqual({
      worker_options: { n_threads: 2 },
    });
  });

  it('maps camelCase bodies back to the wire', () => {
    type Wire = { new_password1: string; phone_number: string; workspaces: { workspace_id: number }[] };
    expect(toWire<Wire>({ newPassword1: 'x', phoneNumber: '1', workspaces: [{ workspaceId: 3 }] })).toEqual({
      new_password1: 'x',
      phone_number: '1',
      workspaces: [{ workspace_id: 3 }],
    });
  });
});

describe('ApiError', () => {
  it('classifies by status with the section 8 messages', () => {
    expect(ApiError.fromResponse(409, {}).kind).toBe('conflict');
    expect(ApiError.fromResponse(401, {}).message).toBe(
      'It seems you have been logged out, redirecting to login',
    );
    expect(ApiError.fromResponse(404, {}).message).toBe('404: Could not find that page or resource');
    expect(ApiError.fromResponse(400, {}).message).toBe('An unknown error occurred');
    expect(ApiError.fromResponse(500, undefined).message).toBe(ERROR_MESSAGES.unknown);
    expect(ApiError.fromFailure(new TypeError('Failed to fetch')).message).toBe(
      "Can't connect to the server",
    );
    expect(ApiError.fromFailure(new DOMException('late', 'TimeoutError')).message).toBe(
      'A network call timed out',
    );
  });

  it('keeps the server body for forms', () => {
    const error = ApiError.fromResponse(400, {
      new_password1: ['This password is too short.', 'This password is too common.'],
      non_field_errors: ['E-mail is not verified.'],
      detail: 'Bad',
      code: 'X',
    });
    expect(error.fieldErrors('new_password1')).toHaveLength(2);
    expect(error.fieldErrors('newPassword1')).toHaveLength(2);
    expect(error.fields).toEqual({
      newPassword1: ['This password is too short.', 'This password is too common.'],
    });
    expect(error.nonFieldErrors).toEqual(['E-mail is not verified.']);
    expect(error.detail).toBe('Bad');
    expect(error.code).toBe('X');
  });

  it("prefers the server's message, then detail, then the first non-field error", () => {
    expect(serverMessage(ApiError.fromResponse(403, { message: 'Over your core limit', detail: 'd' }))).toBe(
      'Over your core limit',
    );
    expect(serverMessage(ApiError.fromResponse(403, { detail: 'Only admins' }))).toBe('Only admins');
    expect(serverMessage(ApiError.fromResponse(400, { non_field_errors: ['Nope'] }))).toBe('Nope');
    expect(serverMessage(ApiError.fromResponse(500, {}))).toBe(ERROR_MESSAGES.unknown);
    expect(serverMessage(new Error('boom'))).toBe(ERROR_MESSAGES.unknown);
  });

  it('reads actionRequired in either spelling', () => {
    expect(ApiError.fromResponse(409, { actionRequired: 'confirm' }).actionRequired).toBe('confirm');
    expect(ApiError.fromResponse(409, { action_required: 'retry' }).actionRequired).toBe('retry');
    expect(ApiError.fromResponse(409, { detail: 'x' }).actionRequired).toBeUndefined();
  });
});

describe('query defaults', () => {
  it('retries failures that may pass next time, three times at most', () => {
    const network = ApiError.fromFailure(new TypeError('down'));
    expect(shouldRetry(0, network)).toBe(true);
    expect(shouldRetry(2, network)).toBe(true);
    expect(shouldRetry(3, network)).toBe(false);
    expect(shouldRetry(0, ApiError.fromResponse(503, {}))).toBe(true);
  });

  it('never retries a 4xx: 401 included, so the current user is not asked again', () => {
    for (const status of [400, 401, 403, 404, 409]) {
      expect(shouldRetry(0, ApiError.fromResponse(status, {}))).toBe(false);
    }
  });

  it('backs off from 1 s, doubling, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

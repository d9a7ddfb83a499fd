import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { detailSchema } from '../../../http/zod.js';
import type { IdentityDeps } from '../ports.js';
import { linkWaitingIdentity } from '../sign-in/routes.js';
import {
  emailBody,
  keyBody,
  keyResponse,
  loginBody,
  passwordChangeBody,
  passwordResetConfirmBody,
  registrationBody,
} from './schemas.js';
import * as auth from './service.js';

const tags = ['auth'];

export function registerAuthRoutes(app: App, deps: IdentityDeps): void {
  const { db } = deps;

  app.post(
    '/api/v1/registration/',
    { config: { auth: 'none' }, schema: { tags, body: registrationBody, response: { 201: detailSchema } } },
    async (request, reply) => {
      const { verified } = await auth.register(deps, request.body);
      // Signed up through an invitation mailed to the address: nothing left to verify.
      return reply
        .code(201)
        .send({ detail: verified ? auth.MESSAGES.alreadyVerified : auth.MESSAGES.verificationSent });
    },
  );

  app.post(
    '/api/v1/registration/verify-email/',
    { config: { auth: 'none' }, schema: { tags, body: keyBody, response: { 200: detailSchema } } },
    async (request) => ({ detail: await auth.verifyEmail(db, request.body.key) }),
  );

  app.post(
    '/api/v1/resend-confirmation-email/',
    { config: { auth: 'none' }, schema: { tags, body: emailBody, response: { 200: detailSchema } } },
    async (request) => {
      await auth.resendConfirmation(deps, request.body.email);
      return { detail: auth.MESSAGES.verificationSent };
    },
  );

  app.post(
    '/api/v1/users/retrieve-username/',
    { config: { auth: 'none' }, schema: { tags, body: emailBody, response: { 200: detailSchema } } },
    async (request) => {
      await auth.retrieveUsername(deps, request.body.email);
      return { detail: auth.MESSAGES.usernameSent };
    },
  );

  app.post(
    '/api/v1/auth/login/',
    { config: { auth: 'none' }, schema: { tags, body: loginBody, response: { 200: keyResponse } } },
    async (request, reply) => {
      const { key, user } = await auth.loginUser(db, { ...request.body, ip: request.ip });
      // A provider sign-in that found this account by its address waits for the owner to prove it.
      await linkWaitingIdentity(deps, request, reply, user);
      return { key };
    },
  );

  app.post(
    '/api/v1/auth/logout/',
    { config: { auth: 'user' }, schema: { tags, response: { 200: detailSchema } } },
    async (request) => {
      const principal = request.principal;
      await auth.logout(db, principal?.kind === 'session' ? principal.sessionId : null);
      return { detail: 'Successfully logged out.' };
    },
  );

  app.post(
    '/api/v1/auth/password/reset/',
    { config: { auth: 'none' }, schema: { tags, body: emailBody, response: { 200: detailSchema } } },
    async (request) => {
      await auth.requestPasswordReset(deps, request.body.email);
      return { detail: auth.MESSAGES.resetSent };
    },
  );

  app.post(
    '/api/v1/auth/password/reset/confirm/',
    {
      config: { auth: 'none' },
      schema: { tags, body: passwordResetConfirmBody, response: { 200: detailSchema } },
    },
    async (request) => {
      await auth.confirmPasswordReset(db, request.body);
      return { detail: auth.MESSAGES.resetDone };
    },
  );

  app.post(
    '/api/v1/auth/password/change/',
    { config: { auth: 'user' }, schema: { tags, body: passwordChangeBody, response: { 200: detailSchema } } },
    async (request) => {
      const { new_password1, new_password2 } = request.body;
      await auth.changePassword(db, currentUser(request), new_password1, new_password2);
      return { detail: auth.MESSAGES.passwordSaved };
    },
  );
}

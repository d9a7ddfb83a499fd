import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { workspaceOf } from '../../identity/index.js';
import { assertMayCreate } from '../access.js';
import { certificateParams, certificateRequest, certificateSchema, workspaceParams } from './schemas.js';
import { certificateStatus, requestCertificate } from './service.js';

const tags = ['clusters'];
const reader = { auth: 'user', workspace: 'read' } as const;
const base = '/api/v2/clusters/account/:account/https-certificate';

export function registerHttpsCertificateRoutes(app: App, { db }: Deps): void {
  app.post(
    base,
    {
      config: reader,
      schema: {
        tags,
        description:
          'Asks for a certificate for a custom dashboard subdomain. Without a DNS zone and ACME ' +
          'account (a self-hosted server has none) the answer is `error` with the reason; a ' +
          'subdomain of another workspace or of a running cluster is `in use`.',
        params: workspaceParams,
        body: certificateRequest,
        response: { 200: certificateSchema },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
      assertMayCreate(access);
      return requestCertificate(db, access.user, access, request.body.subdomain);
    },
  );

  app.get(
    `${base}/:subdomain`,
    {
      config: reader,
      schema: {
        tags,
        description: 'The status of a requested certificate: `ready`/`continue` go, `in use`/`error` stop.',
        params: certificateParams,
        response: { 200: certificateSchema },
      },
    },
    async (request) => {
      return certificateStatus(db, workspaceOf(request), request.params.subdomain);
    },
  );
}

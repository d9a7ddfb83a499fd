import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { itemsOf } from '../../../http/pagination.js';
import { scopeOf } from '../../identity/index.js';
import {
  alertContentsQuery,
  labelSchema,
  labelsQuery,
  tagAlertSchema,
  tagValueSchema,
  valuesQuery,
} from './schemas.js';
import { tagAlertContents, tagLabels, tagValues } from './service.js';

const tags = ['tags'];
/** The clusters of the list's scope filters (`account`, `organization`, `user`...). */
const user = { auth: 'user', scope: 'filters' } as const;

/** Cluster tags across the caller's scope, and the alerts of tagged clusters. */
export function registerTagRoutes(app: App, { db }: Deps): void {
  app.get(
    '/api/v2/tags/labels',
    {
      config: user,
      schema: {
        tags,
        description: 'Tag keys of the clusters in scope, with how many clusters carry each.',
        querystring: labelsQuery,
        response: { 200: itemsOf(labelSchema) },
      },
    },
    async (request) => tagLabels(db, scopeOf(request), request.query),
  );

  app.get(
    '/api/v2/tags/values',
    {
      config: user,
      schema: {
        tags,
        description: 'Tag key/value pairs of the clusters in scope, with how many clusters carry each.',
        querystring: valuesQuery,
        response: { 200: itemsOf(tagValueSchema) },
      },
    },
    async (request) => tagValues(db, scopeOf(request), request.query),
  );

  app.get(
    '/api/v2/tags/alert-contents',
    {
      config: user,
      schema: {
        tags,
        description:
          'Alerts of the clusters in scope that carry the given tags, most severe first; messages are markdown.',
        querystring: alertContentsQuery,
        response: { 200: itemsOf(tagAlertSchema) },
      },
    },
    async (request) => tagAlertContents(db, scopeOf(request), request.query),
  );
}

import { Navigate, useLocation, useParams } from 'react-router';
import { paths } from '@/lib/paths';
import { aliasLink, buildLink } from '@/lib/software/links';
import { ACCOUNT_PARAM, useWorkspace } from '@/lib/workspace';

/**
 * `/software/alias/{id}` and `.../build/{buildId}` without the workspace: to the account-scoped
 * page (the current workspace, else the `account` query parameter; `tab` kept), else the list.
 */
export function SoftwareLegacyRedirect() {
  const { aliasId, buildId } = useParams();
  const { search } = useLocation();
  const { workspace } = useWorkspace();
  const query = new URLSearchParams(search);
  const account = workspace?.slug ?? query.get(ACCOUNT_PARAM);
  if (!account || !aliasId) return <Navigate to={paths.software} replace />;
  const tab = query.get('tab') ?? undefined;
  const id = Number(aliasId);
  const to = buildId
    ? buildLink({ aliasId: id, accountSlug: account, buildId: Number(buildId) }, tab)
    : `${aliasLink({ id, accountSlug: account })}${tab ? `?tab=${tab}` : ''}`;
  return <Navigate to={to} replace />;
}

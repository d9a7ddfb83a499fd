import { Controller, type UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { FieldError, FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { WhyDisabled } from '@/components/why-disabled';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import { WorkspaceAvatar } from '@/features/team/avatars';
import type { MemberValues, memberSchema } from '@/features/team/schemas';
import { paths } from '@/lib/paths';
import { type TeamPermissions, TOOLTIPS } from '@/lib/team/permissions';

type MemberForm = UseFormReturn<MemberValues, unknown, z.output<typeof memberSchema>>;

export const ORGANIZATION_ADMIN_REASON = 'Only organization admins can change this.';

type MemberFormProps = {
  form: MemberForm;
  mode: 'add' | 'edit-member' | 'edit-invite';
  workspaces: readonly OrganizationWorkspace[];
  permissions: TeamPermissions;
  pending: boolean;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
};

const cell = 'px-3 py-2.5 align-top max-sm:p-0';
/** A field's name beside it on a phone, where the table's head is hidden (each row stacks). */
const phoneLabel = 'text-muted-foreground mb-1 block text-xs sm:hidden';

/**
 * The member form: who, the organization admin flag, then per workspace
 * access, core limit, credit limit and admin. Rows the user does not administer are read-only.
 */
export function MemberFormFields({
  form,
  mode,
  workspaces,
  permissions,
  pending,
  onSubmit,
}: MemberFormProps) {
  const { register, control, watch, formState } = form;
  const { errors } = formState;
  const rows = watch('workspaces');

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <FormField
        label="Username or Email"
        error={errors.emailOrUsername?.message}
        description={mode === 'add' ? 'Someone without an account is invited by email.' : undefined}
      >
        <Input
          autoComplete="off"
          placeholder="username or name@company.com"
          disabled={mode !== 'add'}
          {...register('emailOrUsername')}
        />
      </FormField>

      <Controller
        control={control}
        name="organizationAdmin"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <WhyDisabled reason={permissions.isOrganizationAdmin ? null : ORGANIZATION_ADMIN_REASON}>
              <Checkbox
                id="organization-admin"
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                disabled={!permissions.isOrganizationAdmin}
                className="mt-0.5"
              />
            </WhyDisabled>
            <div className="grid gap-1">
              <Label htmlFor="organization-admin">Organization Admin</Label>
              <p className="text-muted-foreground text-xs">
                Organization admins manage workspaces, members and limits across the organization.
              </p>
            </div>
          </div>
        )}
      />

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Workspace access</legend>
        {/* relative: the checkboxes' hidden inputs are positioned within the scrolling box, not the page.
            On a phone each workspace stacks its fields, so none is scrolled out of sight. */}
        <div className="relative overflow-x-auto rounded-lg border">
          <table className="w-full text-sm max-sm:block">
            <thead className="bg-muted/40 text-muted-foreground text-xs max-sm:hidden">
              <tr>
                <th className="px-3 py-2 text-left font-medium">Workspace</th>
                <th className="px-3 py-2 text-left font-medium">Core Limit</th>
                <th className="px-3 py-2 text-left font-medium">Credit Limit</th>
                <th className="px-3 py-2 text-center font-medium">Admin</th>
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {workspaces.map((workspace, index) => {
                const mayEdit = permissions.adminsWorkspace(workspace.id);
                const reason = mayEdit ? null : TOOLTIPS.notWorkspaceAdmin(workspace.name);
                const access = rows[index]?.access ?? false;
                const rowErrors = errors.workspaces?.[index];
                return (
                  <tr
                    key={workspace.id}
                    className="border-t max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-3 max-sm:p-3 max-sm:first:border-t-0"
                    data-workspace={workspace.name}
                  >
                    <td className={`${cell} max-sm:col-span-2`}>
                      <Controller
                        control={control}
                        name={`workspaces.${index}.access`}
                        render={({ field }) => (
                          <div className="flex items-center gap-3">
                            <WhyDisabled reason={reason}>
                              <Checkbox
                                aria-label={`Access to ${workspace.name}`}
                                checked={field.value}
                                onCheckedChange={(checked) => field.onChange(checked === true)}
                                disabled={!mayEdit}
                              />
                            </WhyDisabled>
                            <WorkspaceAvatar workspace={workspace} size="sm" />
                            <span className="truncate font-medium">{workspace.name}</span>
                          </div>
                        )}
                      />
                    </td>
                    <td className={cell}>
                      <span className={phoneLabel} aria-hidden="true">
                        Core Limit
                      </span>
                      <Input
                        aria-label={`Core Limit for ${workspace.name}`}
                        inputMode="numeric"
                        disabled={!mayEdit || !access}
                        aria-invalid={rowErrors?.coreLimit ? true : undefined}
                        className="h-8 w-32 tabular-nums max-sm:w-full"
                        {...register(`workspaces.${index}.coreLimit`)}
                      />
                      <FieldError messages={rowErrors?.coreLimit?.message} className="mt-1" />
                    </td>
                    <td className={cell}>
                      <span className={phoneLabel} aria-hidden="true">
                        Credit Limit
                      </span>
                      <Input
                        aria-label={`Credit Limit for ${workspace.name}`}
                        inputMode="numeric"
                        placeholder="No limit"
                        disabled={!mayEdit || !access}
                        aria-invalid={rowErrors?.creditLimit ? true : undefined}
                        className="h-8 w-36 tabular-nums max-sm:w-full"
                        {...register(`workspaces.${index}.creditLimit`)}
                      />
                      <FieldError messages={rowErrors?.creditLimit?.message} className="mt-1" />
                    </td>
                    <td
                      className={`${cell} text-center max-sm:col-span-2 max-sm:flex max-sm:items-center max-sm:gap-2`}
                    >
                      <Controller
                        control={control}
                        name={`workspaces.${index}.isAdmin`}
                        render={({ field }) => (
                          <Checkbox
                            aria-label={`Admin of ${workspace.name}`}
                            checked={field.value}
                            onCheckedChange={(checked) => field.onChange(checked === true)}
                            disabled={!mayEdit || !access}
                            className="mt-2 max-sm:mt-0"
                          />
                        )}
                      />
                      <span className="text-muted-foreground text-xs sm:hidden" aria-hidden="true">
                        Workspace admin
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {workspaces.length === 0 ? (
          <p className="text-muted-foreground text-sm">{TOOLTIPS.noWorkspaces}</p>
        ) : null}
      </fieldset>

      <div className="flex justify-end gap-2 border-t pt-4">
        <Button asChild variant="outline">
          <Link to={`${paths.team}?tab=team`}>Cancel</Link>
        </Button>
        <SubmitButton pending={pending} className="w-auto">
          {mode === 'add' ? 'Add Member' : 'Save'}
        </SubmitButton>
      </div>
    </form>
  );
}

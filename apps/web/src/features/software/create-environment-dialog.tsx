import { UploadIcon } from 'lucide-react';
import * as React from 'react';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { useAccountOptionsQuery } from '@/data/clusters/account-options-query';
import { useBuildQuery } from '@/data/software/build-query';
import { useSpecCreateMutation } from '@/data/software/spec-create-mutation';
import {
  createEnvironmentBody,
  createEnvironmentSchema,
  SOURCES,
  type Source,
} from '@/features/software/create-environment-form';
import { showServerErrors, useZodForm } from '@/lib/forms';
import { buildLink } from '@/lib/software/links';

const PLACEHOLDER: Record<Source, string> = {
  pip: 'pandas==2.2.*\nscikit-learn\n--extra-index-url https://example.com/simple/',
  conda: 'channels:\n  - conda-forge\ndependencies:\n  - numpy\n  - pip:\n    - mypkg',
  container: 'ghcr.io/org/image:tag',
};
const TAB: Record<Source, string> = { pip: 'pip', conda: 'conda', container: 'Container' };
const LABEL: Record<Source, string> = {
  pip: 'pip requirements',
  conda: 'conda environment.yml',
  container: 'Container image',
};

type CreateEnvironmentDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspace: { slug: string; name: string };
};

/** Name and requirements (pasted or read from a file); creates the environment and opens its build. */
export function CreateEnvironmentDialog({ open, onOpenChange, workspace }: CreateEnvironmentDialogProps) {
  const navigate = useNavigate();
  const create = useSpecCreateMutation();
  const defaults = { name: '', source: 'pip' as Source, text: '' };
  const form = useZodForm(createEnvironmentSchema, { defaultValues: defaults });
  const { errors } = form.formState;
  const [failure, setFailure] = React.useState<string | null>(null);
  // A container image is checked before the dialog closes (pulled, its Python made to import
  // Dask: seconds): a refused image's reason is shown at its field, where it can be changed.
  const [checking, setChecking] = React.useState<{ aliasId: number; buildId: number; name: string } | null>(
    null,
  );
  const check = useBuildQuery(
    { account: workspace.slug, id: checking?.buildId ?? 0 },
    {
      enabled: checking !== null,
      refetchInterval: (query) =>
        query.state.data && ['built', 'error'].includes(query.state.data.state) ? false : 1000,
    },
  );
  const checked = checking && check.data?.id === checking.buildId ? check.data : undefined;
  const source = form.watch('source');
  // Only what the workspace's backend can build is offered (its capabilities' `builds`).
  const options = useAccountOptionsQuery({ account: workspace.slug }, { enabled: open });
  const buildable = options.data
    ? SOURCES.filter((kind) => options.data.capabilities.builds.includes(kind))
    : null;
  const buildsNothing = buildable !== null && buildable.length === 0;
  const firstBuildable = buildable?.[0];
  React.useEffect(() => {
    if (firstBuildable && !buildable?.includes(source)) form.setValue('source', firstBuildable);
  }, [firstBuildable, buildable, source, form]);

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      create.reset();
      form.reset(defaults);
      setFailure(null);
      setChecking(null);
    }
  }

  function openBuild(alias: { id: number; accountSlug: string; name: string }, buildId: number | undefined) {
    toast.success(`Building ${alias.name}`);
    close(false);
    navigate(
      buildId
        ? buildLink({ aliasId: alias.id, accountSlug: alias.accountSlug, buildId }, 'logs')
        : `/software/alias/${alias.id}/account/${alias.accountSlug}`,
    );
  }

  React.useEffect(() => {
    if (!checking || !checked) return;
    if (checked.state === 'built') {
      toast.success(`${checking.name}: the image runs Dask`);
      close(false);
      navigate(
        buildLink(
          { aliasId: checking.aliasId, accountSlug: workspace.slug, buildId: checking.buildId },
          'logs',
        ),
      );
    } else if (checked.state === 'error') {
      setChecking(null);
      form.setError('text', { message: checked.reason || 'The image was refused.' }, { shouldFocus: true });
    }
  });

  async function readFile(file: File | undefined) {
    if (!file) return;
    form.setValue('text', await file.text(), { shouldValidate: true });
  }

  const onSubmit = form.handleSubmit((input) => {
    setFailure(null);
    create.mutate(
      { account: workspace.slug, body: createEnvironmentBody(input) },
      {
        onSuccess: (alias) => {
          const build = alias.latestSpec?.latestBuild;
          if (input.source === 'container' && build)
            setChecking({ aliasId: alias.id, buildId: build.id, name: alias.name });
          else openBuild(alias, build?.id);
        },
        onError: (error) => setFailure(showServerErrors(form.setError, error, ['name'])),
      },
    );
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-xl">
        <form noValidate onSubmit={onSubmit} className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Create software environment</DialogTitle>
            <DialogDescription>
              Packages clusters of <span className="text-foreground font-medium">{workspace.name}</span> run
              with. It is built now; clusters created with its name wait for the build.
            </DialogDescription>
          </DialogHeader>
          <FormAlert>{failure}</FormAlert>
          <FormField label="Name" error={errors.name?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              autoFocus
              {...form.register('name')}
            />
          </FormField>
          {buildable && buildable.length > 1 ? (
            <Controller
              control={form.control}
              name="source"
              render={({ field }) => (
                <Tabs value={field.value} onValueChange={(value) => field.onChange(value as Source)}>
                  <TabsList aria-label="What the environment is made from">
                    {buildable.map((kind) => (
                      <TabsTrigger key={kind} value={kind}>
                        {TAB[kind]}
                      </TabsTrigger>
                    ))}
                  </TabsList>
                </Tabs>
              )}
            />
          ) : null}
          {buildsNothing ? (
            <FormAlert>
              {`Clusters of ${workspace.name} run on ${options.data?.providerName || options.data?.backendType}, which cannot build software environments.`}
            </FormAlert>
          ) : null}
          <FormField
            label={LABEL[source]}
            error={errors.text?.message}
            description={
              source === 'container'
                ? checking
                  ? 'Checking the image: pulling it and making its Python import Dask…'
                  : 'Pulled and checked before it is created: its python3 must import distributed.'
                : undefined
            }
          >
            {source === 'container' ? (
              <Input className="font-mono" placeholder={PLACEHOLDER.container} {...form.register('text')} />
            ) : (
              <Textarea
                rows={8}
                spellCheck={false}
                className="font-mono text-xs"
                placeholder={PLACEHOLDER[source]}
                {...form.register('text')}
              />
            )}
          </FormField>
          {source !== 'container' ? (
            <div>
              <Button variant="outline" size="sm" asChild>
                <label className="cursor-pointer">
                  <UploadIcon />
                  {source === 'pip' ? 'Read requirements.txt' : 'Read environment.yml'}
                  <input
                    type="file"
                    accept={source === 'pip' ? '.txt,text/plain' : '.yml,.yaml'}
                    className="sr-only"
                    onChange={(event) => void readFile(event.target.files?.[0])}
                  />
                </label>
              </Button>
            </div>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            {/* w-auto: a full-width submit button pushed Cancel out of the dialog. */}
            {buildsNothing ? null : (
              <SubmitButton pending={create.isPending || checking !== null} className="w-auto">
                Create and build
              </SubmitButton>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

import * as React from 'react';

import { EmptyState } from '@/components/empty-state';
import { ScrollingPre } from '@/components/scrolling-pre';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { Build, Spec } from '@/data/software/aliases-query';
import { type BuildLogEvent, useBuildLogsQuery } from '@/data/software/build-logs-query';
import { useFormatDateTime } from '@/lib/preferences';

const UNKNOWN = 'Unknown';
/** Build logs are polled every 3 s until the build ends. */
const LOG_POLL_MS = 3_000;
/** Scrolling this close to the end asks for more (a scroll-end threshold of 1000). */
const SCROLL_END_PX = 1000;

const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? UNKNOWN : String(value);

function KeyValues({ rows }: { rows: Array<[string, React.ReactNode]> }) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <Table>
        <TableBody>
          {rows.map(([key, value]) => (
            <TableRow key={key}>
              <TableHead className="text-muted-foreground w-48 text-xs">{key}</TableHead>
              <TableCell className="font-mono text-xs break-all whitespace-normal">{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** What the client's scan found: where and on what it ran, and every package, sorted by name. */
export function LocalEnvironmentTab({ spec, creator }: { spec: Spec; creator: string | null }) {
  const scan = spec.scanResult;
  if (!scan) return <EmptyState title="No local environment information available" />;
  const python = scan.packages.find((p) => p.name === 'python');
  const version = python
    ? [python.pythonMajorVersion, python.pythonMinorVersion, python.pythonPatchVersion].every(
        (v) => v != null,
      )
      ? `${python.pythonMajorVersion}.${python.pythonMinorVersion}.${python.pythonPatchVersion}`
      : show(python.version)
    : UNKNOWN;
  const packages = [...scan.packages].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  return (
    <div className="flex flex-col gap-4">
      <KeyValues
        rows={[
          ['Creator', show(creator)],
          ['Platform', show(scan.platform)],
          ['Prefix (Base)', show(scan.basePrefix)],
          ['Prefix (Virtualenv)', show(scan.prefix)],
          ['PyPI URLS', scan.indexUrls.length ? scan.indexUrls.join(', ') : UNKNOWN],
          ['Python Version', version],
        ]}
      />
      <div className="overflow-x-auto rounded-xl border">
        <Table>
          <TableHeader className="bg-muted/40">
            <TableRow>
              {['Package Name', 'Version', 'Source', 'Channel', 'Wheel Target', 'Requested'].map((h) => (
                <TableHead key={h} className="text-muted-foreground text-xs">
                  {h}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody className="font-mono text-xs">
            {packages.map((p) => (
              <TableRow key={String(p.name)}>
                <TableCell>{String(p.name)}</TableCell>
                <TableCell>{show(p.version)}</TableCell>
                <TableCell>{p.wheelTarget ? 'File' : show(p.source)}</TableCell>
                <TableCell>{show(p.channel)}</TableCell>
                <TableCell className="max-w-64 truncate">{show(p.wheelTarget)}</TableCell>
                <TableCell>{p.requested ? 'true' : 'false'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

/** What the spec asks for: pip lines, conda, an image, and the packages with their specifiers. */
export function RequirementsTab({ spec }: { spec: Spec }) {
  if (spec.containerUri)
    return (
      <EmptyState
        title={`This environment is an image located at ${spec.containerUri} and is not managed by the product`}
      />
    );
  const included = spec.packages.filter((p) => p.include);
  return (
    <div className="flex flex-col gap-4">
      <KeyValues
        rows={[
          ['Spec', `#${spec.id} (md5 ${spec.md5})`],
          ['Architecture', spec.architecture],
          ['Python', show(spec.pythonSpecifier)],
          ['GPU', spec.gpuEnabled ? 'yes' : 'no'],
        ]}
      />
      {spec.rawPip?.length ? (
        <ScrollingPre
          label="pip requirements"
          className="bg-muted/40 overflow-x-auto rounded-xl border p-4 font-mono text-xs"
        >
          {spec.rawPip.join('\n')}
        </ScrollingPre>
      ) : null}
      {spec.rawConda ? (
        <ScrollingPre
          label="conda environment"
          className="bg-muted/40 overflow-x-auto rounded-xl border p-4 font-mono text-xs"
        >
          {JSON.stringify(spec.rawConda, null, 2)}
        </ScrollingPre>
      ) : null}
      {included.length ? (
        <div className="overflow-x-auto rounded-xl border">
          <Table>
            <TableHeader className="bg-muted/40">
              <TableRow>
                {['Package', 'Specifier', 'Source', 'Your version', 'Note'].map((h) => (
                  <TableHead key={h} className="text-muted-foreground text-xs">
                    {h}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody className="font-mono text-xs">
              {included.map((p) => (
                <TableRow key={p.name}>
                  <TableCell>{p.name}</TableCell>
                  <TableCell>{p.specifier || 'any'}</TableCell>
                  <TableCell>{p.file ? `file ${p.file.fileName}` : p.source}</TableCell>
                  <TableCell>{show(p.clientVersion)}</TableCell>
                  <TableCell className="text-destructive">{p.error ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      {!spec.rawPip?.length && !spec.rawConda && !included.length ? (
        <EmptyState title="Nothing is installed beyond the interpreter's own packages" />
      ) : null}
    </div>
  );
}

/** The build's log: time and message, oldest first, appended as the build goes on. */
export function BuildLogsTab({ account, build }: { account: string; build: Build }) {
  const formatDateTime = useFormatDateTime();
  const ref = { account, id: build.id };
  const logs = useBuildLogsQuery(ref);
  const running = build.state === 'queued' || build.state === 'building';
  const { fetchNextPage, isFetchingNextPage } = logs;
  // While the build runs, new lines are asked for from where the last page ended.
  React.useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (!isFetchingNextPage) void fetchNextPage();
    }, LOG_POLL_MS);
    return () => clearInterval(timer);
  }, [running, fetchNextPage, isFetchingNextPage]);
  // Once it has ended, the last lines are fetched once more.
  React.useEffect(() => {
    if (!running) void fetchNextPage();
  }, [running, fetchNextPage]);
  const events: BuildLogEvent[] = logs.data?.pages.flatMap((page) => page.events) ?? [];
  const onScroll = (event: React.UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_END_PX && !isFetchingNextPage)
      void fetchNextPage();
  };
  if (logs.isPending) return <p className="text-muted-foreground text-sm">Loading logs...</p>;
  if (events.length === 0) return <EmptyState title="No logs" />;
  return (
    <div
      className="max-h-[87vh] overflow-auto rounded-xl border"
      onScroll={onScroll}
      data-testid="build-logs"
    >
      <Table>
        <TableHeader className="bg-muted/40 sticky top-0">
          <TableRow>
            <TableHead className="text-muted-foreground w-44 text-xs max-sm:hidden">Time</TableHead>
            <TableHead className="text-muted-foreground text-xs">Message</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="font-mono text-xs">
          {events.map((event) => {
            const time = formatDateTime(new Date(event.timestamp));
            return (
              <TableRow key={event.eventId}>
                <TableCell className="text-muted-foreground align-top whitespace-nowrap max-sm:hidden">
                  {time}
                </TableCell>
                {/* On a phone the time goes over the message, which keeps the width of the screen. */}
                <TableCell className="whitespace-pre-wrap [overflow-wrap:anywhere]">
                  <span className="text-muted-foreground block sm:hidden">{time}</span>
                  {event.message}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/** What the build installed, beside the versions of the client the spec came from. */
export function InstalledTab({ build, spec }: { build: Build; spec: Spec }) {
  const client = new Map(
    spec.packages.map((p) => [p.name.toLowerCase().replace(/[-_.]+/g, '-'), p.clientVersion]),
  );
  if (build.packages.length === 0)
    return <EmptyState title="Nothing was installed beyond the interpreter's own packages" />;
  return (
    <div className="overflow-x-auto rounded-xl border">
      <Table>
        <TableHeader className="bg-muted/40">
          <TableRow>
            {['Package', 'Cluster version', 'Client version', 'Source', 'sha256'].map((h) => (
              <TableHead key={h} className="text-muted-foreground text-xs">
                {h}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody className="font-mono text-xs">
          {build.packages.map((p) => {
            const theirs = client.get(p.name);
            return (
              <TableRow key={p.name}>
                <TableCell>{p.name}</TableCell>
                <TableCell>{p.version}</TableCell>
                <TableCell className={theirs && theirs !== p.version ? 'text-warning' : undefined}>
                  {theirs ?? '—'}
                </TableCell>
                <TableCell>{p.source}</TableCell>
                <TableCell className="max-w-40 truncate" title={p.sha256 ?? undefined}>
                  {p.sha256 ?? '—'}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

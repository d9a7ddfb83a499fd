import { marked, type Token, type Tokens } from 'marked';
import * as React from 'react';
import { Link } from 'react-router';

import { ScrollingPre } from '@/components/scrolling-pre';
import { useScrollRegion } from '@/hooks/use-scroll-region';
import { NO_OP_HREF, safeHref } from '@/lib/safe-href';
import { cn } from '@/lib/utils';

/**
 * Markdown (alerts' messages) as React elements, never as HTML: raw HTML shows as the text it is,
 * images as links, and every link follows the link rule of lib/safe-href.
 */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const tokens = React.useMemo(() => marked.lexer(source, { gfm: true }), [source]);
  return (
    <div data-slot="markdown" className={cn('grid gap-2 break-words', className)}>
      {blocks(tokens)}
    </div>
  );
}

/** Entity references (`&amp;`, `&#115;`) as the characters they stand for, without running any HTML. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return new DOMParser().parseFromString(`<!doctype html><body>${text}`, 'text/html').body.textContent ?? '';
}

/** Each piece with a key: where it starts in its source, its identity in a parse. */
function positioned<T>(items: T[], size: (item: T) => number): Array<[T, string]> {
  let at = 0;
  return items.map((item) => {
    const key = String(at);
    at += Math.max(1, size(item));
    return [item, key];
  });
}
const rawSize = (token: { raw?: string }) => token.raw?.length ?? 1;
const textSize = (cell: { text: string }) => cell.text.length + 1;

function blocks(tokens: Token[]): React.ReactNode[] {
  return positioned(tokens, rawSize).map(([token, key]) => (
    <React.Fragment key={key}>{block(token)}</React.Fragment>
  ));
}

function block(token: Token): React.ReactNode {
  switch (token.type) {
    case 'paragraph':
      return <p>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading;
      const Heading = `h${Math.min(depth + 2, 6)}` as 'h3';
      return <Heading className="font-semibold">{inline(tokens)}</Heading>;
    }
    case 'code':
      return (
        <ScrollingPre label="Code" className="bg-muted overflow-x-auto rounded-md p-3 font-mono text-xs">
          <code>{(token as Tokens.Code).text}</code>
        </ScrollingPre>
      );
    case 'blockquote':
      return (
        <blockquote className="border-l-2 pl-3 italic">
          {blocks((token as Tokens.Blockquote).tokens)}
        </blockquote>
      );
    case 'list': {
      const list = token as Tokens.List;
      const items = positioned(list.items, rawSize).map(([item, key]) => (
        <li key={key}>{blocks(item.tokens)}</li>
      ));
      return list.ordered ? (
        <ol start={list.start === '' ? undefined : list.start} className="list-decimal pl-5">
          {items}
        </ol>
      ) : (
        <ul className="list-disc pl-5">{items}</ul>
      );
    }
    case 'table':
      return <MarkdownTable table={token as Tokens.Table} />;
    case 'hr':
      return <hr />;
    case 'space':
      return null;
    case 'text': {
      // A list item's text: inline tokens of its own.
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decodeEntities(text.text);
    }
    default:
      // Raw HTML and anything else: its source, as text.
      return <p>{token.raw}</p>;
  }
}

function MarkdownTable({ table }: { table: Tokens.Table }) {
  const scrollRegion = useScrollRegion<HTMLDivElement>('Scrollable table');
  return (
    <div
      ref={scrollRegion}
      className="focus-visible:ring-ring/50 overflow-x-auto rounded-md outline-none focus-visible:ring-[3px]"
    >
      <table className="text-xs">
        <thead>
          <tr>
            {positioned(table.header, textSize).map(([cell, key]) => (
              <th key={key} className="border px-2 py-1 text-left">
                {inline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {positioned(table.rows, (row) => row.reduce((n, cell) => n + textSize(cell), 0)).map(
            ([row, key]) => (
              <tr key={key}>
                {positioned(row, textSize).map(([cell, at]) => (
                  <td key={at} className="border px-2 py-1">
                    {inline(cell.tokens)}
                  </td>
                ))}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

function inline(tokens: Token[] | undefined): React.ReactNode[] {
  return positioned(tokens ?? [], rawSize).map(([token, key]) => (
    <React.Fragment key={key}>{inlineToken(token)}</React.Fragment>
  ));
}

function inlineToken(token: Token): React.ReactNode {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decodeEntities(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'strong':
      return <strong>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{inline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return (
        <code className="bg-muted rounded px-1 font-mono text-[0.85em]">
          {(token as Tokens.Codespan).text}
        </code>
      );
    case 'br':
      return <br />;
    case 'link': {
      const link = token as Tokens.Link;
      return <SafeLink href={link.href}>{inline(link.tokens)}</SafeLink>;
    }
    case 'image': {
      const image = token as Tokens.Image;
      return <SafeLink href={image.href}>{image.text || 'image'}</SafeLink>;
    }
    default:
      // Inline HTML and anything else: its source, as text.
      return token.raw;
  }
}

const linkClass = 'text-primary underline underline-offset-4';

/** A link as the rule allows it: in-console paths stay in the console, others open beside it. */
function SafeLink({ href, children }: { href: string; children: React.ReactNode }) {
  const wanted = decodeEntities(href);
  const safe = safeHref(wanted);
  if (safe === NO_OP_HREF && wanted.trim() !== NO_OP_HREF) {
    return (
      <a
        href={NO_OP_HREF}
        className={linkClass}
        data-link-removed=""
        title="This link was removed: only web, mail and phone links are kept."
        onClick={(event) => event.preventDefault()}
      >
        {children}
      </a>
    );
  }
  if (/^\/(?!\/)/.test(safe)) {
    return (
      <Link to={safe} className={linkClass}>
        {children}
      </Link>
    );
  }
  const external = /^(https?:)?\/\//i.test(safe.trim());
  return (
    <a
      href={safe}
      className={linkClass}
      {...(external ? { target: '_blank', rel: 'noreferrer noopener' } : {})}
    >
      {children}
    </a>
  );
}

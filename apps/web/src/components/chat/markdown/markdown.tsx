import { ImageIcon } from 'lucide-react';
import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cn } from '@/lib/utils';
import { findPassage, useCitations } from '../citations';
import { remarkCitationMarkers } from './citation-markers';
import { CodeBlock } from './code-block';
import { useMarkdownExtras } from './markdown-extras';
import { imageHost, safeUrl } from './safe-url';
import './markdown.css';

/** A remote image is fetched only when the reader asks: loading it would tell its host. */
const RemoteImage = ({ src, alt }: { src: string; alt: string }) => {
  const [shown, setShown] = useState(false);
  const host = imageHost(src);
  if (!host) return alt ? <span>{alt}</span> : null;
  if (shown) {
    return (
      <img
        src={src}
        alt={alt}
        loading="lazy"
        referrerPolicy="no-referrer"
        className="my-2 max-h-96 max-w-full rounded-md border"
      />
    );
  }
  return (
    <button
      type="button"
      onClick={() => setShown(true)}
      className="my-1 inline-flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-1.5 text-xs text-muted-foreground hover:bg-muted hover:text-foreground"
    >
      <ImageIcon aria-hidden="true" className="size-3.5" />
      Load image from {host}
      {alt ? <span className="sr-only">: {alt}</span> : null}
    </button>
  );
};

const SafeLink = ({ href, children }: { href?: string | undefined; children?: ReactNode }) =>
  href ? (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="font-medium text-primary underline underline-offset-4"
    >
      {children}
    </a>
  ) : (
    <span>{children}</span>
  );

/** A reply's `[n]`: a button that opens the passage it cites, or the text as written. */
const CitationMarker = ({ n, children }: { n: number; children?: ReactNode }) => {
  const citations = useCitations();
  const source = citations ? findPassage(citations.sources, n) : undefined;
  if (!citations || !source) return <>{children}</>;
  const name = source.document_name ?? source.title ?? 'the document';
  return (
    <sup>
      <button
        type="button"
        onClick={() => citations.open(source)}
        aria-label={`Open source ${n}: ${name}`}
        title={name}
        className="mx-0.5 rounded bg-primary/10 px-1 text-[0.7rem] font-medium text-primary tabular-nums hover:bg-primary/20"
      >
        {n}
      </button>
    </sup>
  );
};

const components: Components = {
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  img: ({ src, alt }) =>
    typeof src === 'string' ? <RemoteImage src={src} alt={alt ?? ''} /> : null,
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
  // Only the citation plugin gives a `sup` its `data-cite`; the rest stay as they are.
  sup: ({ node, children }) => {
    const cite = node?.properties?.dataCite;
    return cite === undefined ? (
      <sup>{children}</sup>
    ) : (
      <CitationMarker n={Number(cite)}>{children}</CitationMarker>
    );
  },
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  ),
};

const remarkPlugins = [remarkGfm];
const citationPlugins = [remarkCitationMarkers];
const none: typeof citationPlugins = [];
const urlTransform = (url: string) => safeUrl(url);

type MarkdownProps = {
  content: string;
  className?: string;
  /** The reply cites knowledge passages: its `[n]` markers open them (see CitationsContext). */
  citable?: boolean;
};

/**
 * Renders model output as markdown, safely: raw HTML is shown as text (there is no rehype-raw),
 * links go only to http(s) or mailto and open in a new tab without referrer, and remote images
 * wait for a click. Code highlighting and math load on demand.
 */
export const Markdown = memo(function Markdown({ content, className, citable }: MarkdownProps) {
  const extras = useMarkdownExtras(content);
  const markers = citable ? citationPlugins : none;
  return (
    <div className={cn('markdown-body', className)}>
      <ReactMarkdown
        remarkPlugins={[...remarkPlugins, ...extras.remarkPlugins, ...markers]}
        rehypePlugins={extras.rehypePlugins}
        urlTransform={urlTransform}
        components={components}
      >
        {content}
      </ReactMarkdown>
    </div>
  );
});

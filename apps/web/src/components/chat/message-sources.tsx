import { FileText } from 'lucide-react';
import type { Source } from '@chorus/shared/api/conversations';
import { positionLabel } from '@/lib/knowledge-position';
import { citationNumber, isPassage } from './citations';
import { imageHost, safeUrl } from './markdown/safe-url';

/**
 * The citations of a reply, numbered as the reply refers to them: web pages (links) and
 * documents; a knowledge-base passage opens in a dialog.
 */
export const MessageSources = ({
  sources,
  onOpenPassage,
}: {
  sources: Source[];
  onOpenPassage?: ((source: Source) => void) | undefined;
}) => (
  <div className="mt-3 border-t pt-2">
    <p className="text-xs font-medium text-muted-foreground">Sources</p>
    <ol className="mt-1 grid gap-1 text-xs" aria-label="Sources">
      {sources.map((source, position) => {
        const n = citationNumber(source, position);
        const href = source.url ? safeUrl(source.url) : null;
        const label =
          source.title || source.document_name || imageHost(source.url) || source.url || 'Source';
        const where = source.document_name
          ? positionLabel({ page: source.page ?? null, heading_path: source.heading_path ?? [] })
          : '';
        const passage = onOpenPassage && isPassage(source);
        return (
          <li
            key={`${position}:${source.chunk_id ?? source.url ?? label}`}
            className="grid gap-0.5"
          >
            <span className="flex min-w-0 items-center gap-1.5">
              <span className="text-muted-foreground tabular-nums">[{n}]</span>
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="truncate text-primary underline-offset-4 hover:underline"
                  title={source.url}
                >
                  {label}
                </a>
              ) : passage ? (
                <button
                  type="button"
                  className="flex min-w-0 items-center gap-1 truncate text-left text-primary underline-offset-4 hover:underline"
                  aria-label={`Open source ${n}: ${label}${where ? `, ${where}` : ''}`}
                  onClick={() => onOpenPassage(source)}
                >
                  <FileText aria-hidden="true" className="size-3 shrink-0" />
                  <span className="truncate">{label}</span>
                </button>
              ) : (
                <span className="flex min-w-0 items-center gap-1 truncate">
                  {source.document_name ? (
                    <FileText aria-hidden="true" className="size-3 shrink-0" />
                  ) : null}
                  {label}
                </span>
              )}
              {where ? <span className="shrink-0 text-muted-foreground">· {where}</span> : null}
            </span>
            {source.snippet ? (
              <blockquote className="ml-6 line-clamp-3 border-l-2 pl-2 text-muted-foreground">
                {source.snippet}
              </blockquote>
            ) : null}
          </li>
        );
      })}
    </ol>
  </div>
);

import { FileText } from 'lucide-react';
import type { Source } from '@chorus/shared/api/conversations';
import { imageHost, safeUrl } from './markdown/safe-url';

/** The citations of a reply, numbered as the reply refers to them: web pages and documents. */
export const MessageSources = ({ sources }: { sources: Source[] }) => (
  <div className="mt-3 border-t pt-2">
    <p className="text-xs font-medium text-muted-foreground">Sources</p>
    <ol className="mt-1 grid gap-1 text-xs">
      {sources.map((source, index) => {
        const href = source.url ? safeUrl(source.url) : null;
        const label =
          source.title || source.document_name || imageHost(source.url) || source.url || 'Source';
        return (
          <li key={`${index}:${source.url || label}`} className="grid gap-0.5">
            <span className="flex min-w-0 gap-1.5">
              <span className="text-muted-foreground tabular-nums">[{index + 1}]</span>
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
              ) : (
                <span className="flex min-w-0 items-center gap-1 truncate">
                  {source.document_name ? (
                    <FileText aria-hidden="true" className="size-3 shrink-0" />
                  ) : null}
                  {label}
                </span>
              )}
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

import { Copy, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import type { DiscoverItem } from '@chorus/shared/api/discover';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { cn } from '@/lib/utils';
import { customAiChatPath } from '../utils/discover-params';

const kindLabel = { prompt: 'Prompt', scenario: 'Scenario', custom_ai: 'Custom AI' } as const;

const kindBadge = {
  prompt: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  scenario: 'bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-100',
  custom_ai: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
} as const;

/** `uses` counts the different people who copied or ran it. */
const usesText = (uses: number) =>
  `Used by ${uses.toLocaleString('en-US')} ${uses === 1 ? 'person' : 'people'} in the last 30 days`;

type DiscoverCardProps = {
  item: DiscoverItem;
  copying: boolean;
  disabled: boolean;
  /** A prompt copied on this visit: the card says where it went. */
  copied: boolean;
  /** The item named in the URL on the way back from sign-in. */
  highlighted: boolean;
  onUse: () => void;
  onTag: (tag: string) => void;
};

export const DiscoverCard = ({
  item,
  copying,
  disabled,
  copied,
  highlighted,
  onUse,
  onTag,
}: DiscoverCardProps) => {
  const headingId = `discover-${item.kind}-${item.id}`;
  return (
    <li
      aria-labelledby={headingId}
      data-kind={item.kind}
      className={cn(
        'flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm',
        highlighted && 'ring-2 ring-primary',
      )}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className={cn('rounded px-1.5 py-0.5 font-medium', kindBadge[item.kind])}>
          {kindLabel[item.kind]}
        </span>
        <span className="rounded bg-muted px-1.5 py-0.5">{item.category}</span>
        {item.featured ? (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            Featured
          </span>
        ) : null}
      </div>
      <div className="flex items-center gap-3">
        {item.kind === 'custom_ai' ? (
          <CustomAiAvatar name={item.title} avatar={item.avatar} />
        ) : null}
        <h2 id={headingId} className="min-w-0 text-lg leading-snug font-semibold break-words">
          {item.title}
        </h2>
      </div>
      {item.description ? (
        <p className="text-sm text-muted-foreground">{item.description}</p>
      ) : null}
      {item.preview ? (
        <div className="rounded-md bg-muted/50 p-3">
          <p className="text-xs font-medium text-muted-foreground">
            {item.kind === 'custom_ai' ? 'Instructions' : 'Prompt'}
          </p>
          <p className="mt-1 line-clamp-4 text-sm break-words whitespace-pre-wrap">
            {item.preview}
          </p>
        </div>
      ) : null}
      {item.tags.length > 0 ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {item.tags.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                onClick={() => onTag(tag)}
                className="rounded-full border px-2 py-0.5 text-xs text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                #{tag}
                <span className="sr-only"> (show everything tagged {tag})</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-1">
        {/* null: too few people to show (under 5). */}
        <p className="text-xs text-muted-foreground">
          {item.uses === null ? null : usesText(item.uses)}
        </p>
        {item.kind === 'custom_ai' ? (
          // Its replies use the caller's keys and quota; a guest signs in on the way.
          <LinkButton to={customAiChatPath(item.id)}>
            <MessageSquare aria-hidden="true" />
            Start a chat
            <span className="sr-only"> with “{item.title}”</span>
          </LinkButton>
        ) : copied ? (
          <p role="status" className="text-sm">
            In your prompts.{' '}
            <Link to="/prompts" className="font-medium text-primary underline underline-offset-4">
              Open your prompts
            </Link>
          </p>
        ) : (
          <Button onClick={onUse} disabled={disabled}>
            <Copy aria-hidden="true" />
            {copying ? 'Copying…' : `Use this ${item.kind}`}
            <span className="sr-only"> “{item.title}”</span>
          </Button>
        )}
      </div>
    </li>
  );
};

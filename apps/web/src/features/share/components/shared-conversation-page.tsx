import { Link2Off } from 'lucide-react';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import type { SharedMessage } from '@chorus/shared/api/conversation-sharing';
import { shareMessages } from '@chorus/shared/share-messages';
import { Markdown } from '@/components/chat/markdown/markdown';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { providerName } from '@/lib/providers';
import { useSharedConversation } from '../api/get-shared-conversation';

const PlainText = ({ content }: { content: string }) => (
  <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{content}</p>
);

/** One message, read-only: the person's words as written, the model's as markdown (never HTML). */
const SharedMessageItem = ({ message }: { message: SharedMessage }) => {
  if (message.role === 'user') {
    return (
      <li className="flex flex-col items-end" data-role="user">
        <p className="sr-only">{shareMessages.you}:</p>
        <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-primary/10 px-4 py-2.5 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
          {message.content}
        </div>
      </li>
    );
  }
  return (
    <li data-role="assistant">
      <p className="mb-1 text-xs font-medium text-muted-foreground">
        {message.provider ? providerName(message.provider) : 'Assistant'}
        {message.model ? <span className="font-normal"> · {message.model}</span> : null}
      </p>
      <Suspense fallback={<PlainText content={message.content} />}>
        <Markdown content={message.content} className="text-sm" />
      </Suspense>
      {message.status === 'interrupted' ? (
        <p className="mt-2 rounded-md border bg-muted/40 px-3 py-2 text-xs text-muted-foreground">
          {shareMessages.cutOff}
        </p>
      ) : null}
    </li>
  );
};

/** A revoked, replaced or unknown link: the server answers them all alike. */
const Unavailable = () => (
  <section className="mx-auto flex max-w-xl flex-col items-center rounded-xl border border-dashed px-6 py-12 text-center">
    <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted">
      <Link2Off aria-hidden="true" className="size-6 text-muted-foreground" />
    </div>
    <h1 className="text-xl font-semibold">{shareMessages.unavailableTitle}</h1>
    <p className="mt-2 max-w-prose text-sm text-muted-foreground">{shareMessages.unavailable}</p>
    <LinkButton to="/" className="mt-6">
      {shareMessages.home}
    </LinkButton>
  </section>
);

/**
 * `/share/:token`: a conversation someone shared, as it was when they shared it. Public and
 * read-only; the page says nothing about who shared it (the API does not either).
 */
export const SharedConversationPage = () => {
  const { token = '' } = useParams();
  const shared = useSharedConversation(token);

  if (shared.isPending) return <CenteredSpinner label="Loading the shared chat" />;

  if (shared.isError) {
    if (isApiError(shared.error) && shared.error.status === 404) {
      return <Unavailable />;
    }
    return (
      <div role="alert" className="mx-auto grid max-w-xl justify-items-start gap-3">
        <h1 className="text-xl font-semibold">{shareMessages.loadSharedFailed}</h1>
        <p className="text-sm text-muted-foreground">{errorMessage(shared.error)}</p>
        <Button variant="outline" onClick={() => void shared.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const { title, shared_at, messages } = shared.data;
  return (
    <article className="mx-auto grid w-full max-w-3xl gap-8">
      <header className="grid gap-2 border-b pb-6">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
          {title || shareMessages.untitled}
        </h1>
        <p className="text-sm text-muted-foreground">
          {shareMessages.sharedOn(formatDate(shared_at))}
        </p>
        <p className="text-sm text-muted-foreground">{shareMessages.readOnly}</p>
      </header>
      <ol aria-label="Messages" className="grid gap-6">
        {messages.map((message, index) => (
          <SharedMessageItem key={index} message={message} />
        ))}
      </ol>
      <footer className="flex flex-col items-start gap-3 rounded-xl border bg-muted/30 p-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">{shareMessages.pitch}</p>
        <LinkButton to="/">{shareMessages.tryChorus}</LinkButton>
      </footer>
    </article>
  );
};

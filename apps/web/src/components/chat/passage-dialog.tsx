import { useQuery } from '@tanstack/react-query';
import type { Source } from '@chorus/shared/api/conversations';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError, isClientError } from '@/lib/api-error';
import { positionLabel, readableText } from '@/lib/knowledge-position';
import { knowledgeChunkQueryOptions } from '@/lib/queries/knowledge-bases';

/** Said when the cited chunk is gone (its document was deleted or re-read since). */
export const passageGoneText = 'This passage is no longer in the knowledge base.';

const Snippet = ({ text }: { text: string | undefined }) =>
  text ? (
    <blockquote className="border-l-2 pl-3 text-sm whitespace-pre-wrap text-muted-foreground [overflow-wrap:anywhere]">
      {text}
    </blockquote>
  ) : null;

/**
 * A cited passage of a knowledge base, opened from a reply: its document, where in it, and the
 * whole passage as the knowledge base holds it now. A passage that is gone shows what the reply
 * stored of it.
 */
export const PassageDialog = ({ source, onClose }: { source: Source; onClose: () => void }) => {
  const chunk = useQuery({
    ...knowledgeChunkQueryOptions(source.knowledge_base_id ?? '', source.chunk_id ?? ''),
    retry: (failures, error) => !isClientError(error) && failures < 2,
  });
  const gone = isApiError(chunk.error) && chunk.error.status === 404;
  const where = chunk.data
    ? positionLabel(chunk.data.position)
    : positionLabel({ page: source.page ?? null, heading_path: source.heading_path ?? [] });
  const title = chunk.data?.document_name ?? source.document_name ?? source.title ?? 'Passage';
  return (
    <Dialog open title={title} onClose={onClose} className="max-w-2xl">
      <div className="grid gap-3" data-testid="passage">
        {where ? <p className="text-sm font-medium text-muted-foreground">{where}</p> : null}
        {chunk.isPending ? (
          <Spinner label="Loading the passage" />
        ) : chunk.data ? (
          <div className="max-h-[60vh] overflow-auto rounded-md border bg-muted/30 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
            {readableText(chunk.data.text, chunk.data.position.page)}
          </div>
        ) : (
          <>
            <p role="status" className="text-sm">
              {gone
                ? passageGoneText
                : `The passage could not be loaded: ${errorMessage(chunk.error)}`}
              {source.snippet ? ' What the reply quoted from it:' : ''}
            </p>
            <Snippet text={source.snippet} />
          </>
        )}
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </Dialog>
  );
};

import { Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  knowledgeLimits,
  type KnowledgeBase,
  type KnowledgeHit,
  type KnowledgeSearchResult,
} from '@chorus/shared/api/knowledge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage } from '@/lib/api-error';
import { positionLabel, readableText } from '@/lib/knowledge-position';
import { cn } from '@/lib/utils';
import { useKnowledgeSearch } from '../api/knowledge-search';

const topKChoices = [5, 8, 20, 50].filter((n) => n <= knowledgeLimits.topK.max);

const methodLabel = { vector: 'Vector', full_text: 'Full text' } as const;

/** One method's verdict on a chunk: its rank and score, or that it did not find it. */
const ScoreRow = ({
  name,
  testId,
  rank,
  score,
  digits,
  fused = false,
}: {
  name: string;
  testId: string;
  rank: number | null;
  score: number | null;
  digits: number;
  fused?: boolean;
}) => (
  <tr
    data-testid={`score-${testId}`}
    className={cn('border-t first:border-t-0', fused && 'bg-primary/5 font-medium')}
  >
    <th scope="row" className="py-1 pr-2 pl-2 text-left font-medium">
      {name}
    </th>
    {rank === null || score === null ? (
      <td colSpan={2} className="py-1 pr-2 text-right text-muted-foreground">
        not found
      </td>
    ) : (
      <>
        <td className="py-1 pr-2 text-right">#{rank}</td>
        <td className="py-1 pr-2 text-right">{score.toFixed(digits)}</td>
      </>
    )}
  </tr>
);

const HitRow = ({ hit, baseName }: { hit: KnowledgeHit; baseName: string | null }) => {
  const where = positionLabel(hit.position);
  return (
    <li
      aria-label={`Result ${hit.rank}: ${hit.document_name}`}
      className="grid gap-3 rounded-lg border bg-card p-3 lg:grid-cols-[minmax(0,1fr)_14rem]"
    >
      <div className="grid min-w-0 gap-1.5">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="font-semibold tabular-nums">#{hit.rank}</span>
          <span className="font-medium break-all">{hit.document_name}</span>
          {where ? <span className="text-muted-foreground">{where}</span> : null}
          {baseName ? <span className="text-xs text-muted-foreground">in {baseName}</span> : null}
        </p>
        <p className="line-clamp-6 text-sm whitespace-pre-wrap text-muted-foreground [overflow-wrap:anywhere]">
          {readableText(hit.text, hit.position.page)}
        </p>
        <p className="text-xs text-muted-foreground">
          Found by{' '}
          {hit.found_by.length > 0
            ? hit.found_by.map((method) => methodLabel[method]).join(' and ')
            : 'neither method'}
        </p>
      </div>
      <table className="self-start overflow-hidden rounded-md border text-xs tabular-nums">
        <caption className="sr-only">Ranks and scores</caption>
        <thead className="bg-muted/50 text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 pl-2 text-left font-medium">
              Method
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Rank
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Score
            </th>
          </tr>
        </thead>
        <tbody>
          <ScoreRow
            name="Fused"
            testId="fused"
            rank={hit.rank}
            score={hit.score}
            digits={4}
            fused
          />
          <ScoreRow
            name="Vector"
            testId="vector"
            rank={hit.vector?.rank ?? null}
            score={hit.vector?.score ?? null}
            digits={3}
          />
          <ScoreRow
            name="Full text"
            testId="full-text"
            rank={hit.full_text?.rank ?? null}
            score={hit.full_text?.score ?? null}
            digits={3}
          />
        </tbody>
      </table>
    </li>
  );
};

/** The ranked chunks of one search, each method's rank and score beside the fused one. */
export const InspectorResults = ({
  result,
  bases,
}: {
  result: KnowledgeSearchResult;
  bases: KnowledgeBase[];
}) => {
  const several = new Set(result.results.map((hit) => hit.knowledge_base_id)).size > 1;
  const nameOf = (id: string) => bases.find((base) => base.id === id)?.name ?? null;
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground">
        {result.mode === 'hybrid'
          ? 'Hybrid search: vector similarity and full text, fused by reciprocal rank (k = 60).'
          : 'Full-text search only: no vectors were used.'}
      </p>
      {result.notice ? (
        <p
          role="note"
          className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs"
        >
          {result.notice}
        </p>
      ) : null}
      {result.results.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          Nothing matched. Try other words, or check that the documents have finished processing
          (“Ready”).
        </p>
      ) : (
        <ol className="grid gap-2" aria-label="Ranked passages">
          {result.results.map((hit) => (
            <HitRow
              key={hit.chunk_id}
              hit={hit}
              baseName={several ? nameOf(hit.knowledge_base_id) : null}
            />
          ))}
        </ol>
      )}
    </div>
  );
};

/**
 * Type a query and see what a chat would retrieve from the chosen knowledge bases: the ranked
 * passages with the vector score, the full-text score and the fused rank side by side.
 */
export const RetrievalInspector = ({
  bases,
  selectedId,
}: {
  bases: KnowledgeBase[];
  selectedId: string;
}) => {
  const id = useId();
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState<number>(knowledgeLimits.topK.default);
  const [others, setOthers] = useState<string[]>([]);
  const search = useKnowledgeSearch();
  const scope = [selectedId, ...others.filter((other) => other !== selectedId)].slice(
    0,
    knowledgeLimits.searchBases,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) return;
    search.mutate({ knowledge_base_ids: scope, query: query.trim(), top_k: topK });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3">
      <div>
        <h3 id={`${id}-title`} className="text-base font-semibold">
          Retrieval inspector
        </h3>
        <p className="text-sm text-muted-foreground">
          What a chat would find for these words: every passage with its vector score, its full-text
          score and its fused rank.
        </p>
      </div>
      <form className="grid gap-2" onSubmit={submit}>
        <div className="flex flex-wrap gap-2">
          <label htmlFor={`${id}-query`} className="sr-only">
            Query
          </label>
          <Input
            id={`${id}-query`}
            className="min-w-48 flex-1"
            placeholder="Ask what you would ask in a chat"
            maxLength={knowledgeLimits.query}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
          <label htmlFor={`${id}-top-k`} className="sr-only">
            Passages to show
          </label>
          <NativeSelect
            id={`${id}-top-k`}
            className="w-32"
            value={topK}
            onChange={(event) => setTopK(Number(event.target.value))}
          >
            {topKChoices.map((n) => (
              <option key={n} value={n}>
                Top {n}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" disabled={search.isPending || !query.trim()}>
            <Search aria-hidden="true" /> {search.isPending ? 'Searching…' : 'Search'}
          </Button>
        </div>
        {bases.length > 1 ? (
          <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
            <legend className="sr-only">Knowledge bases to search</legend>
            <span className="text-muted-foreground">Also search:</span>
            {bases
              .filter((base) => base.id !== selectedId)
              .map((base) => (
                <label key={base.id} className="flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    checked={others.includes(base.id)}
                    onChange={(event) =>
                      setOthers(
                        event.target.checked
                          ? [...others, base.id]
                          : others.filter((other) => other !== base.id),
                      )
                    }
                  />
                  {base.name}
                </label>
              ))}
          </fieldset>
        ) : null}
      </form>
      {search.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The search failed: {errorMessage(search.error)}
        </p>
      ) : null}
      {search.data ? <InspectorResults result={search.data} bases={bases} /> : null}
    </section>
  );
};

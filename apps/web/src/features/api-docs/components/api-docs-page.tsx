import { useState } from 'react';
import { AlertCircle } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import type { JsonSchema, MediaTypes } from '../api/get-openapi';
import { useOpenApiDocument } from '../api/get-openapi';
import { groupOperationsByTag, type OperationEntry } from './group-operations';
import { SchemaTree } from './schema-tree';

const methodColours: Record<string, string> = {
  get: 'bg-sky-500/15 text-sky-700 dark:text-sky-300',
  post: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  put: 'bg-amber-500/15 text-amber-800 dark:text-amber-300',
  patch: 'bg-violet-500/15 text-violet-700 dark:text-violet-300',
  delete: 'bg-red-500/15 text-red-700 dark:text-red-300',
};

const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const Content = ({
  content,
  schemas,
}: {
  content: MediaTypes | undefined;
  schemas: Record<string, JsonSchema>;
}) => {
  if (!content) return null;
  return (
    <>
      {Object.entries(content).map(([mediaType, media]) => (
        <div key={mediaType} className="mt-2">
          <p className="text-xs text-muted-foreground">{mediaType}</p>
          {media.schema ? (
            <div className="mt-1 overflow-x-auto rounded-md bg-muted/50 p-3">
              <SchemaTree schema={media.schema} schemas={schemas} />
            </div>
          ) : null}
        </div>
      ))}
    </>
  );
};

/** One operation of the reference, and the schemas its `$ref`s point into. */
type OperationProps = { entry: OperationEntry; schemas: Record<string, JsonSchema> };

const OperationCard = ({ entry, schemas }: OperationProps) => {
  const { method, path, operation } = entry;
  // The reference lists every operation; a card's parameters and schemas are drawn only once it
  // is opened (then kept), so the page starts with about 1,300 nodes instead of 32,000.
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="group rounded-lg border bg-card"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-3 px-4 py-3 [&::-webkit-details-marker]:hidden">
        <span
          className={cn(
            'w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-semibold uppercase',
            methodColours[method] ?? 'bg-muted',
          )}
        >
          {method}
        </span>
        <code className={cn('font-mono text-sm break-all', operation.deprecated && 'line-through')}>
          {path}
        </code>
        {operation.summary ? (
          <span className="text-sm text-muted-foreground">{operation.summary}</span>
        ) : null}
      </summary>
      {opened ? <OperationBody entry={entry} schemas={schemas} /> : null}
    </details>
  );
};

const OperationBody = ({ entry, schemas }: OperationProps) => {
  const { operation, parameters } = entry;
  return (
    <div className="grid gap-5 border-t px-4 py-4 text-sm">
      {operation.description ? (
        <p className="text-muted-foreground">{operation.description}</p>
      ) : null}
      {parameters.length > 0 ? (
        <section>
          <h4 className="font-medium">Parameters</h4>
          <ul className="mt-2 grid gap-1.5">
            {parameters.map((parameter) => (
              <li key={`${parameter.in}-${parameter.name}`} className="font-mono text-xs">
                <span className="font-semibold">{parameter.name}</span>
                {parameter.required ? <span className="text-destructive">*</span> : null}
                <span className="text-muted-foreground">
                  {' '}
                  ({parameter.in})
                  {parameter.schema?.type ? `: ${String(parameter.schema.type)}` : ''}
                </span>
                {parameter.description ? (
                  <p className="font-sans text-muted-foreground">{parameter.description}</p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {operation.requestBody ? (
        <section>
          <h4 className="font-medium">
            Request body{operation.requestBody.required ? '' : ' (optional)'}
          </h4>
          {operation.requestBody.description ? (
            <p className="text-muted-foreground">{operation.requestBody.description}</p>
          ) : null}
          <Content content={operation.requestBody.content} schemas={schemas} />
        </section>
      ) : null}
      {operation.responses ? (
        <section>
          <h4 className="font-medium">Responses</h4>
          <ul className="mt-2 grid gap-3">
            {Object.entries(operation.responses).map(([status, response]) => (
              <li key={status}>
                <p>
                  <span
                    className={cn(
                      'font-mono font-semibold',
                      status.startsWith('2')
                        ? 'text-emerald-600 dark:text-emerald-400'
                        : 'text-amber-700 dark:text-amber-300',
                    )}
                  >
                    {status}
                  </span>{' '}
                  <span className="text-muted-foreground">{response.description}</span>
                </p>
                <Content content={response.content} schemas={schemas} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
};

export const ApiDocsPage = () => {
  const query = useOpenApiDocument();

  if (query.isPending) return <CenteredSpinner label="Loading the API reference" />;
  if (query.isError) {
    return (
      <div>
        <PageHeader title="API reference" />
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm text-destructive"
        >
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>The API description could not be loaded: {errorMessage(query.error)}</span>
        </div>
      </div>
    );
  }

  const doc = query.data;
  const groups = groupOperationsByTag(doc);
  const schemas = doc.components?.schemas ?? {};

  return (
    <div>
      <PageHeader
        title={doc.info.title || 'API reference'}
        description={
          <>
            Version {doc.info.version} · OpenAPI {doc.openapi}
            {doc.info.description ? (
              <span className="mt-1 block">{doc.info.description}</span>
            ) : null}
          </>
        }
      />
      {groups.length === 0 ? (
        <p className="text-sm text-muted-foreground">The API description lists no operations.</p>
      ) : (
        <div className="grid gap-10 lg:grid-cols-[12rem_1fr]">
          <nav aria-label="API sections" className="lg:sticky lg:top-20 lg:self-start">
            <ul className="flex flex-wrap gap-2 text-sm lg:flex-col lg:gap-1">
              {groups.map((group) => (
                <li key={group.name}>
                  <a
                    href={`#tag-${slug(group.name)}`}
                    className="rounded-md px-2 py-1 text-muted-foreground hover:bg-accent hover:text-foreground"
                  >
                    {group.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="grid min-w-0 gap-10">
            {groups.map((group) => (
              <section
                key={group.name}
                id={`tag-${slug(group.name)}`}
                aria-labelledby={`tag-${slug(group.name)}-title`}
              >
                <h2 id={`tag-${slug(group.name)}-title`} className="text-lg font-semibold">
                  {group.name}
                </h2>
                {group.description ? (
                  <p className="mt-1 text-sm text-muted-foreground">{group.description}</p>
                ) : null}
                <div className="mt-4 grid gap-2">
                  {group.operations.map((entry) => (
                    <OperationCard
                      key={`${entry.method} ${entry.path}`}
                      entry={entry}
                      schemas={schemas}
                    />
                  ))}
                </div>
              </section>
            ))}
          </div>
        </div>
      )}
    </div>
  );
};

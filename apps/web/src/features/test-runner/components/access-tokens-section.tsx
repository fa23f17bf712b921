import { Check, Copy, KeyRound, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  createAccessTokenSchema,
  testRunLimits,
  type AccessToken,
  type CreatedAccessToken,
} from '@chorus/shared/api/test-runs';
import { CodeBlock } from '@/components/forms/json-call-form';
import { Field, TextField } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, TableLoadError, TableLoading } from '@/components/ui/data-table';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage } from '@/lib/api-error';
import { copyText } from '@/lib/clipboard';
import { formatDate, formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { helpLinks } from '@/lib/help-links';
import { useAccessTokens, useCreateAccessToken, useRevokeAccessToken } from '../api/access-tokens';
import { linkClass } from './run-format';

const expiryChoices = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never (until revoked)' },
] as const;

/** How a pipeline starts a run and reads its result with the token. */
export const curlExample = (token: string, origin = window.location.origin) =>
  [
    `export CHORUS_TOKEN='${token}'`,
    '',
    '# Start a run of a test set (its id is in the set’s address)',
    `curl -s -X POST ${origin}/functions/v1/test-run \\`,
    '  -H "Authorization: Bearer $CHORUS_TOKEN" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"test_set_id":"<test set id>","targets":[{"provider":"openai","model":"gpt-5-mini"}],"repeats":1}'`,
    '',
    '# Poll it until it ends; fail the build when summary.all_passed is false or summary.regressions > 0',
    `curl -s ${origin}/functions/v1/test-run/<run id> \\`,
    '  -H "Authorization: Bearer $CHORUS_TOKEN"',
  ].join('\n');

const CopyButton = ({ text, label }: { text: string; label: string }) => {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => {
        void copyText(text).then((ok) => {
          if (ok) setCopied(true);
        });
      }}
    >
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {copied ? 'Copied' : label}
    </Button>
  );
};

/** The token just made, shown this once with a way to copy it and use it. */
const NewToken = ({ token, onDone }: { token: CreatedAccessToken; onDone: () => void }) => (
  <section
    aria-label="Copy your token now"
    className="grid gap-3 rounded-lg border border-emerald-500/40 bg-emerald-500/5 p-4"
  >
    <p className="text-sm font-medium">
      Token “{token.name}” created. Copy it now: it is shown only this once, and only a hash of it
      is kept.
    </p>
    <div className="flex flex-wrap items-center gap-2">
      <code
        aria-label="New access token"
        className="min-w-0 flex-1 rounded-md border bg-background px-2 py-1.5 font-mono text-xs break-all"
      >
        {token.token}
      </code>
      <CopyButton text={token.token} label="Copy token" />
    </div>
    <div className="grid gap-1">
      <p className="text-sm">Use it from a pipeline with curl:</p>
      <CodeBlock label="Example with curl">{curlExample(token.token)}</CodeBlock>
      <div>
        <CopyButton text={curlExample(token.token)} label="Copy example" />
      </div>
    </div>
    <div className="flex justify-end">
      <Button onClick={onDone}>I have copied it</Button>
    </div>
  </section>
);

const CreateTokenForm = ({ onCreated }: { onCreated: (token: CreatedAccessToken) => void }) => {
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<string>('90');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAccessToken();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createAccessTokenSchema.safeParse({
      name,
      expires_in_days: expiry === 'never' ? null : Number(expiry),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the name');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (token) => {
        setName('');
        onCreated(token);
      },
      onError: (cause) =>
        toast.error('Could not create the token', { description: errorMessage(cause) }),
    });
  };
  return (
    <form
      noValidate
      aria-label="Create an access token"
      className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto]"
      onSubmit={submit}
    >
      <TextField
        label="Token name"
        error={error ?? undefined}
        hint="Where it is used, e.g. “GitHub Actions”."
        maxLength={testRunLimits.name}
        value={name}
        onChange={(value) => {
          setName(value);
          setError(null);
        }}
      />
      <Field label="Expires after">
        {({ id }) => (
          <NativeSelect id={id} value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {expiryChoices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
        <Plus aria-hidden="true" /> {create.isPending ? 'Creating…' : 'Create token'}
      </Button>
    </form>
  );
};

const expiresText = (token: AccessToken, now: number) => {
  if (token.expires_at === null) return 'Never';
  const at = Date.parse(token.expires_at);
  return at <= now ? `Expired ${formatDate(token.expires_at)}` : formatDate(token.expires_at);
};

const TokenTable = ({ onRevoke }: { onRevoke: (token: AccessToken) => void }) => {
  const tokens = useAccessTokens();
  const [now] = useState(() => Date.now());
  if (tokens.isPending) return <TableLoading label="Loading your access tokens" />;
  if (tokens.isError) return <TableLoadError what="Your access tokens" error={tokens.error} />;
  if (tokens.data.items.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        You have no access tokens yet. Create one above to start runs from a CI pipeline.
      </p>
    );
  }
  return (
    <DataTable
      caption="Your access tokens"
      columns={[
        { label: 'Name' },
        { label: 'Token' },
        { label: 'Created' },
        { label: 'Last used' },
        { label: 'Expires' },
        { label: 'Actions', end: true, hidden: true },
      ]}
    >
      {tokens.data.items.map((token) => (
        <tr key={token.id}>
          <td className="px-4 py-3 font-medium">{token.name}</td>
          <td className="px-4 py-3 font-mono text-xs">{token.hint}…</td>
          <td className="px-4 py-3 text-muted-foreground">{formatDate(token.created_at)}</td>
          <td className="px-4 py-3 text-muted-foreground">
            {formatDateTime(token.last_used_at, 'Never')}
          </td>
          <td className="px-4 py-3 text-muted-foreground">{expiresText(token, now)}</td>
          <td className="px-4 py-3 text-right">
            <Button
              variant="outline"
              size="sm"
              aria-label={`Revoke “${token.name}”`}
              onClick={() => onRevoke(token)}
            >
              Revoke
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
};

/** Personal access tokens for CI: make one (seen once), see when each was used, revoke one. */
export const AccessTokensSection = () => {
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  const revoke = useRevokeAccessToken();
  return (
    <section aria-labelledby="api-access-heading" className="grid gap-4">
      <div>
        <h2 id="api-access-heading" className="flex items-center gap-2 text-lg font-semibold">
          <KeyRound aria-hidden="true" className="size-5" /> API access
        </h2>
        <p className="mt-1 max-w-prose text-sm text-muted-foreground">
          A personal access token lets a CI pipeline start runs of your test sets and read their
          results, nothing else. Send it as <code>Authorization: Bearer …</code>; fail the build on{' '}
          <code>summary.all_passed = false</code> or any regression.{' '}
          <Link to={helpLinks.testRunnerCi} className={linkClass}>
            The API for CI: the guide
          </Link>
        </p>
      </div>
      {created ? (
        <NewToken token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm onCreated={setCreated} />
      )}
      <TokenTable onRevoke={setRevoking} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke token"
        destructive
        onConfirm={() => {
          const token = revoking;
          setRevoking(null);
          if (!token) return;
          revoke.mutate(token.id, {
            onSuccess: () => toast.success(`“${token.name}” revoked`),
            onError: (error) =>
              toast.error(`Could not revoke “${token.name}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setRevoking(null)}
      >
        Pipelines that use it stop working at once. This cannot be undone: make a new token to use
        instead.
      </ConfirmDialog>
    </section>
  );
};

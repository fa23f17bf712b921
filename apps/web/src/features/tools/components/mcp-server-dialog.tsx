import { createMcpServerSchema, type McpServer } from '@chorus/shared/api/tools';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { DraftForm, useDraftForm } from '@/components/forms/draft-form';
import { Field, TextField } from '@/components/forms/field';
import { Dialog } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/lib/toast';
import { useAddMcpServer } from '../api/mcp-servers';

type Draft = { name: string; url: string; auth: 'token' | 'oauth'; token: string };
type DraftErrors = Partial<Record<keyof Draft, string>>;

const fieldOfErrorCode: Partial<Record<ErrorCode, keyof Draft>> = {
  'mcp:connect_failed': 'url',
  'outbound:refused': 'url',
  'outbound:timeout': 'url',
  'outbound:failed': 'url',
};

/** A name from the address when none is typed: `mcp.example.com`. */
const nameFromUrl = (url: string) => {
  try {
    return new URL(url.trim()).hostname;
  } catch {
    return '';
  }
};

/** The body to send, or the message for each field to fix. */
const bodyOf = (draft: Draft) => {
  const token = draft.auth === 'oauth' ? '' : draft.token.trim();
  const parsed = createMcpServerSchema.safeParse({
    name: draft.name.trim() || nameFromUrl(draft.url),
    url: draft.url,
    auth: draft.auth === 'oauth' ? 'oauth' : token ? 'bearer' : 'none',
    token: token || null,
  });
  if (parsed.success) return { body: parsed.data, errors: null };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const field = (['name', 'url', 'token'] as const).find((f) => f === issue.path[0]);
    errors[field ?? 'url'] ??= issue.message;
  }
  return { body: null, errors };
};

const AddServerForm = ({
  onDone,
  onCancel,
}: {
  onDone: (server: McpServer) => void;
  onCancel: () => void;
}) => {
  const add = useAddMcpServer();
  const form = useDraftForm({
    initial: (): Draft => ({ name: '', url: '', auth: 'token', token: '' }),
    check: bodyOf,
    save: async (body) => {
      const server = await add.mutateAsync(body);
      // Kept even when it could not be reached: its card says why, and Refresh tools retries.
      if (server.last_error?.code === 'mcp:authorization_required') {
        toast.info(`“${server.name}” added: sign in to it`, {
          description: 'Use “Sign in” on its card; its tools are listed when you come back.',
        });
      } else if (server.status === 'error') {
        toast.warning(`“${server.name}” added, but it did not answer`, {
          description: server.last_error?.message,
        });
      } else toast.success(`“${server.name}” added`);
      onDone(server);
    },
    fieldOfErrorCode,
  });
  const { draft, errors, set } = form;

  return (
    <DraftForm
      form={form}
      onCancel={onCancel}
      submitLabel={add.isPending ? 'Connecting…' : 'Add server'}
      submitDisabled={add.isPending}
    >
      <TextField
        label="Server URL"
        error={errors.url}
        hint="Its Streamable HTTP (or older SSE) endpoint, often ending in /mcp."
        inputMode="url"
        value={draft.url}
        placeholder="https://mcp.example.com/mcp"
        onChange={(value) => set('url', value)}
      />
      <TextField
        label="Name"
        error={errors.name}
        hint="Left empty, the server’s host name."
        maxLength={80}
        value={draft.name}
        placeholder={nameFromUrl(draft.url) || 'e.g. Issue tracker'}
        onChange={(value) => set('name', value)}
      />
      <Field
        label="Authentication"
        hint={
          draft.auth === 'oauth'
            ? 'You sign in to the server in a new tab after adding it; Chorus keeps the tokens encrypted.'
            : undefined
        }
      >
        {({ id, describedBy }) => (
          <NativeSelect
            id={id}
            aria-describedby={describedBy}
            value={draft.auth}
            onChange={(event) => set('auth', event.target.value === 'oauth' ? 'oauth' : 'token')}
          >
            <option value="token">None, or a bearer token</option>
            <option value="oauth">OAuth (sign in to the server)</option>
          </NativeSelect>
        )}
      </Field>
      {draft.auth === 'token' ? (
        <TextField
          label="Bearer token (optional)"
          error={errors.token}
          hint="Sent as Authorization: Bearer …; stored encrypted and never shown again."
          type="password"
          autoComplete="off"
          value={draft.token}
          onChange={(value) => set('token', value)}
        />
      ) : null}
      <p className="text-xs text-muted-foreground">
        Chorus connects to it now and lists its tools. Then choose which of them your agents may
        call.
      </p>
    </DraftForm>
  );
};

/** Adds a remote MCP server by its URL, with a bearer token when it wants one. */
export const McpServerDialog = ({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: (server: McpServer) => void;
}) => (
  <Dialog open={open} title="Add an MCP server" onClose={onClose} className="max-w-xl">
    {open ? <AddServerForm onDone={onSaved} onCancel={onClose} /> : null}
  </Dialog>
);

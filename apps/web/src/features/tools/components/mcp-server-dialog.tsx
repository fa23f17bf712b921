import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createMcpServerSchema, type McpServer } from '@chorus/shared/api/tools';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { Field, fieldOfServerError } from '@/lib/agents-tools/form-field';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useAddMcpServer } from '../api/mcp-servers';

type Draft = { name: string; url: string; token: string };
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

const AddServerForm = ({
  onDone,
  onCancel,
}: {
  onDone: (server: McpServer) => void;
  onCancel: () => void;
}) => {
  const [draft, setDraft] = useState<Draft>({ name: '', url: '', token: '' });
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddMcpServer();
  const formRef = useRef<HTMLFormElement>(null);
  const set = (field: keyof Draft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const token = draft.token.trim();
    const parsed = createMcpServerSchema.safeParse({
      name: draft.name.trim() || nameFromUrl(draft.url),
      url: draft.url,
      auth: token ? 'bearer' : 'none',
      token: token || null,
    });
    if (!parsed.success) {
      const found: DraftErrors = {};
      for (const issue of parsed.error.issues) {
        const field = (['name', 'url', 'token'] as const).find((f) => f === issue.path[0]);
        found[field ?? 'url'] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const server = await add.mutateAsync(parsed.data);
      // Kept even when it could not be reached: its card says why, and Refresh tools retries.
      if (server.status === 'error') {
        toast.warning(`“${server.name}” added, but it did not answer`, {
          description: server.last_error?.message,
        });
      } else toast.success(`“${server.name}” added`);
      onDone(server);
    } catch (cause) {
      const field = fieldOfServerError(cause, fieldOfErrorCode);
      if (field) setErrors({ [field]: errorMessage(cause) });
      else setFailure(errorMessage(cause));
    }
  };

  return (
    <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <Field
        label="Server URL"
        error={errors.url}
        hint="Its Streamable HTTP (or older SSE) endpoint, often ending in /mcp."
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            inputMode="url"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.url}
            placeholder="https://mcp.example.com/mcp"
            onChange={(event) => set('url', event.target.value)}
          />
        )}
      </Field>
      <Field label="Name" error={errors.name} hint="Left empty, the server’s host name.">
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            maxLength={80}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.name}
            placeholder={nameFromUrl(draft.url) || 'e.g. Issue tracker'}
            onChange={(event) => set('name', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Bearer token (optional)"
        error={errors.token}
        hint="Sent as Authorization: Bearer …; stored encrypted and never shown again."
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="password"
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={draft.token}
            onChange={(event) => set('token', event.target.value)}
          />
        )}
      </Field>
      <p className="text-xs text-muted-foreground">
        Chorus connects to it now and lists its tools. Then choose which of them your agents may
        call.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitLabel={add.isPending ? 'Connecting…' : 'Add server'}
        submitDisabled={add.isPending}
      />
    </form>
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

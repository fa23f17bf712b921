import { Lock, Plus, X } from 'lucide-react';
import { httpMethods, toolLimits, type HttpTool } from '@chorus/shared/api/tools';
import { DraftForm, EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useCreateHttpTool, useUpdateHttpTool } from '../api/http-tools';
import {
  bodyOf,
  draftOf,
  fieldOfErrorCode,
  newRowId,
  placeholdersOf,
  type DraftErrors,
  type HeaderDraft,
  type HttpToolDraft,
} from './http-tool-draft';

const Headers = ({
  headers,
  errors,
  onChange,
}: {
  headers: HeaderDraft[];
  errors: DraftErrors;
  onChange: (headers: HeaderDraft[]) => void;
}) => {
  const change = (rowId: number, patch: Partial<HeaderDraft>) =>
    onChange(headers.map((header) => (header.rowId === rowId ? { ...header, ...patch } : header)));
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">Headers</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        Sent with every call, such as an API key. Mark a header secret to store it encrypted: its
        value is never shown again, and tests show it masked.
      </p>
      {headers.length > 0 ? (
        <ol className="grid gap-2">
          {headers.map((header, index) => {
            const error = errors[`headers.${index}`];
            const n = index + 1;
            const keeping = header.secret && header.keptHint !== null;
            return (
              <li key={header.rowId} className="grid gap-1">
                <div className="flex flex-wrap items-center gap-1 sm:flex-nowrap">
                  <Input
                    aria-label={`Header ${n} name`}
                    aria-invalid={error ? true : undefined}
                    className="sm:w-44"
                    value={header.name}
                    placeholder="Authorization"
                    onChange={(event) => change(header.rowId, { name: event.target.value })}
                  />
                  <Input
                    aria-label={`Header ${n} value`}
                    aria-invalid={error ? true : undefined}
                    type={header.secret ? 'password' : 'text'}
                    autoComplete="off"
                    maxLength={toolLimits.headerValue}
                    value={header.value}
                    placeholder={
                      keeping
                        ? `Stored ${header.keptHint ?? ''}: leave empty to keep`
                        : header.secret
                          ? 'Secret value'
                          : 'Bearer …'
                    }
                    onChange={(event) => change(header.rowId, { value: event.target.value })}
                  />
                  <label className="flex shrink-0 items-center gap-1 px-1 text-sm">
                    <input
                      type="checkbox"
                      checked={header.secret}
                      onChange={(event) =>
                        // A stored secret made plain has no value to keep: it needs one typed.
                        change(header.rowId, {
                          secret: event.target.checked,
                          keptHint: event.target.checked ? header.keptHint : null,
                        })
                      }
                    />
                    <Lock aria-hidden="true" className="size-3.5" />
                    <span>
                      Secret<span className="sr-only"> (header {n})</span>
                    </span>
                  </label>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove header ${n}`}
                    title="Remove"
                    onClick={() => onChange(headers.filter((h) => h.rowId !== header.rowId))}
                  >
                    <X aria-hidden="true" />
                  </Button>
                </div>
                {keeping && header.value === '' ? (
                  <p className="text-xs text-muted-foreground">
                    The stored value ({header.keptHint}) is kept. Type a new one to replace it.
                  </p>
                ) : null}
                {error ? <p className="text-sm text-destructive">{error}</p> : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      {errors.headers ? <p className="text-sm text-destructive">{errors.headers}</p> : null}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={headers.length >= toolLimits.headers}
          onClick={() =>
            onChange([
              ...headers,
              { rowId: newRowId(), name: '', value: '', secret: false, keptHint: null },
            ])
          }
        >
          <Plus aria-hidden="true" /> Add a header
        </Button>
      </div>
    </fieldset>
  );
};

const HttpToolForm = ({
  tool,
  onDone,
  onCancel,
}: {
  tool: HttpTool | null;
  onDone: (saved: HttpTool) => void;
  onCancel: () => void;
}) => {
  const form = useEditorForm({
    item: tool,
    initial: () => draftOf(tool),
    check: bodyOf,
    create: useCreateHttpTool(),
    update: useUpdateHttpTool(),
    onDone,
    fieldOfErrorCode,
  });
  const { draft, errors, set, setDraft, setErrors } = form;

  const placeholders = placeholdersOf(draft.urlTemplate);
  return (
    <DraftForm form={form} onCancel={onCancel} submitLabel={tool ? 'Save' : 'Create tool'}>
      <TextField
        label="Name"
        error={errors.name}
        hint="What the model calls it: letters, digits and underscores, like get_weather."
        maxLength={toolLimits.name}
        value={draft.name}
        placeholder="get_weather"
        onChange={(value) => set('name', value)}
      />
      <TextAreaField
        label="Description"
        error={errors.description}
        hint="Tells the model what the tool does and when to use it."
        rows={2}
        maxLength={toolLimits.description}
        value={draft.description}
        placeholder="The current weather in a city."
        onChange={(value) => set('description', value)}
      />
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <Field label="Method" error={errors.method}>
          {({ id, describedBy }) => (
            <NativeSelect
              id={id}
              aria-describedby={describedBy}
              value={draft.method}
              onChange={(event) => set('method', event.target.value as HttpToolDraft['method'])}
            >
              {httpMethods.map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <TextField
          label="URL"
          error={errors.urlTemplate}
          hint={
            <>
              Put input properties in braces, like{' '}
              <code>https://api.example.com/weather?city={'{city}'}</code>: each is filled in,
              URL-encoded.{' '}
              {placeholders.length > 0
                ? `Placeholders: ${placeholders.map((p) => `{${p}}`).join(', ')}.`
                : null}{' '}
              For POST, PUT and PATCH the other properties go as the JSON body.
            </>
          }
          inputMode="url"
          maxLength={toolLimits.urlTemplate}
          value={draft.urlTemplate}
          placeholder="https://api.example.com/weather?city={city}"
          onChange={(value) => set('urlTemplate', value)}
        />
      </div>
      <Headers
        headers={draft.headers}
        errors={errors}
        onChange={(headers) => {
          setDraft((current) => ({ ...current, headers }));
          setErrors({});
        }}
      />
      <TextAreaField
        label="Input schema (JSON)"
        error={errors.inputSchema}
        hint={
          <>
            A JSON Schema with <code>"type": "object"</code>: its <code>properties</code> are what
            the model fills in, with a <code>description</code> each to say what they mean.
          </>
        }
        rows={8}
        spellCheck={false}
        className="font-mono text-xs"
        value={draft.inputSchema}
        onChange={(value) => set('inputSchema', value)}
      />
    </DraftForm>
  );
};

/** Creates an HTTP tool, or edits one. */
export const HttpToolDialog = ({
  open,
  tool,
  onClose,
  onSaved,
}: {
  open: boolean;
  tool: HttpTool | null;
  onClose: () => void;
  onSaved: (tool: HttpTool) => void;
}) => (
  <EditorDialog open={open} item={tool} newTitle="New HTTP tool" onClose={onClose}>
    {(item) => <HttpToolForm tool={item} onDone={onSaved} onCancel={onClose} />}
  </EditorDialog>
);

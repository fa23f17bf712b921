import {
  Fragment,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { fieldOfServerError } from './server-error';

type Errors = Partial<Record<string, string>>;

export type DraftFormState<D, E extends Errors> = {
  draft: D;
  setDraft: (update: (current: D) => D) => void;
  errors: E;
  setErrors: (errors: E) => void;
  /** A field's new value, clearing the error said under it. */
  set: <K extends keyof D>(field: K, value: D[K]) => void;
  /** What went wrong with the last save, when it is about no one field. */
  failure: string | null;
  formRef: RefObject<HTMLFormElement | null>;
  submit: (event: FormEvent) => Promise<void>;
};

/**
 * A create-or-edit form's state: the draft, its errors (checked in the browser first, then the
 * server's, each under its field when `fieldOfErrorCode` says which), and the save.
 */
export const useDraftForm = <D extends object, E extends Errors, B>({
  initial,
  check,
  save,
  fieldOfErrorCode = {},
}: {
  initial: () => D;
  /** The draft checked in the browser: the body to send, or the message for each field to fix. */
  check: (draft: D) => { body: B | null; errors: E | null };
  /** Sends the body; a throw is shown as the failure, or under its field. */
  save: (body: NonNullable<B>) => Promise<void>;
  fieldOfErrorCode?: Partial<Record<ErrorCode, keyof E & string>>;
}): DraftFormState<D, E> => {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<E>({} as E);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof D>(field: K, value: D[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    const key = field as string;
    if (errors[key]) setErrors({ ...errors, [key]: undefined });
  };

  // After a refused submit, the first field to fix gets the cursor.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = check(draft);
    if (!checked.body) {
      setErrors(checked.errors ?? ({} as E));
      return;
    }
    setErrors({} as E);
    try {
      await save(checked.body);
    } catch (cause) {
      const field = fieldOfServerError(cause, fieldOfErrorCode);
      if (field) setErrors({ [field]: errorMessage(cause) } as E);
      else setFailure(errorMessage(cause));
    }
  };

  return { draft, setDraft, errors, setErrors, set, failure, formRef, submit };
};

type Mutation<V, T> = { mutateAsync: (variables: V) => Promise<T>; isPending: boolean };

/**
 * `useDraftForm` for a thing the user creates (`item` null) or edits: the save sends the update or
 * the create, says so in a toast and hands the saved thing on.
 */
export const useEditorForm = <
  D extends object,
  E extends Errors,
  B,
  T extends { id: string; name: string },
>({
  item,
  create,
  update,
  onDone,
  ...form
}: Omit<Parameters<typeof useDraftForm<D, E, B>>[0], 'save'> & {
  item: T | null;
  create: Mutation<NonNullable<B>, T>;
  update: Mutation<{ id: string; patch: NonNullable<B> }, T>;
  onDone: (saved: T) => void;
}): DraftFormState<D, E> & { saving: boolean } => ({
  ...useDraftForm({
    ...form,
    save: async (body) => {
      const saved = item
        ? await update.mutateAsync({ id: item.id, patch: body })
        : await create.mutateAsync(body);
      toast.success(item ? `“${saved.name}” saved` : `“${saved.name}” created`);
      onDone(saved);
    },
  }),
  saving: create.isPending || update.isPending,
});

/**
 * The form of `useDraftForm`: its fields, then the failure, Cancel and the submit button. The
 * button is off while an editor form (`useEditorForm`) saves, unless `submitDisabled` says more.
 */
export const DraftForm = ({
  form: { formRef, submit, failure, saving = false },
  onCancel,
  submitLabel,
  submitDisabled = saving,
  children,
}: {
  form: Pick<DraftFormState<unknown, Errors>, 'formRef' | 'submit' | 'failure'> & {
    saving?: boolean;
  };
  onCancel: () => void;
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  children: ReactNode;
}) => (
  <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
    {children}
    <FormActions
      error={failure}
      onCancel={onCancel}
      submitLabel={submitLabel}
      submitDisabled={submitDisabled}
    />
  </form>
);

/**
 * The dialog that creates a thing (`item` null) or edits one: its form is mounted afresh for each
 * item, and only while the dialog is open.
 */
export const EditorDialog = <T extends { id: string; name: string }>({
  open,
  item,
  newTitle,
  onClose,
  className = 'max-w-2xl',
  children,
}: {
  open: boolean;
  item: T | null;
  /** The title when it creates one; an edit is titled by the item's name. */
  newTitle: string;
  onClose: () => void;
  /** The dialog's width, when a wide form needs more than the usual. */
  className?: string;
  children: (item: T | null) => ReactNode;
}) => (
  <Dialog
    open={open}
    title={item ? `Edit “${item.name}”` : newTitle}
    onClose={onClose}
    className={className}
  >
    {open ? <Fragment key={item?.id ?? 'new'}>{children(item)}</Fragment> : null}
  </Dialog>
);

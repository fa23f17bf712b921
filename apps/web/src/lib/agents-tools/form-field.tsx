// Moved to components/forms, shared by every create-or-edit dialog; kept here for its importers.
export { Field, TextAreaField, TextField } from '@/components/forms/field';
export { fieldOfServerError } from '@/components/forms/server-error';

import { useId, useState, type FormEvent } from 'react';
import { FREE_PLAN_NAME, type AdminPricingPlan } from '@chorus/shared/api/plans';
import { scheduleLimits, schedulePlanBounds } from '@chorus/shared/api/schedules';
import { formatBytes } from '@chorus/shared/bytes';
import { fileLimitCeilings, fileLimitDefaults, MB } from '@chorus/shared/limits';
import type { ProviderId } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { providerList } from '@/lib/providers';

export type PricingPlanDraft = {
  name: string;
  price_cents: number;
  daily_prompt_limit: number | null;
  allowed_providers: ProviderId[];
  allowed_models: string[];
  stripe_price_id: string | null;
  max_file_bytes: number | null;
  storage_quota_bytes: number | null;
  max_schedules: number | null;
  min_schedule_interval_minutes: number | null;
};

type Errors = Partial<
  Record<'name' | 'price' | 'limit' | 'maxFile' | 'quota' | 'schedules' | 'interval', string>
>;

const centsToText = (cents: number) => (cents / 100).toFixed(2);

/** "12", "12.5", "12.50" → cents; null when it is not a price. */
export const parsePrice = (text: string): number | null => {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+([.,]\d{1,2})?$/.test(trimmed)) return null;
  return Math.round(Number(trimmed.replace(',', '.')) * 100);
};

/** Blank is unlimited (null); otherwise a whole number ≥ 0, or undefined when invalid. */
export const parseLimit = (text: string): number | null | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
};

/**
 * A size typed in MB ("10", "0.5", "1,5") → bytes; blank is the instance default (null);
 * undefined when it is not a size above 0 and at most `ceiling` bytes.
 */
export const parseMegabytes = (text: string, ceiling: number): number | null | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+([.,]\d{1,3})?$/.test(trimmed)) return undefined;
  const bytes = Math.round(Number(trimmed.replace(',', '.')) * MB);
  return bytes > 0 && bytes <= ceiling ? bytes : undefined;
};

/**
 * A whole number from `min` to `max`; blank is the instance default (null), undefined when it
 * is not such a number.
 */
export const parseBounded = (
  text: string,
  { min, max }: { min: number; max: number },
): number | null | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : undefined;
};

const numberText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

const megabytesText = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? '' : String(Number((bytes / MB).toFixed(3)));

/** Models typed one per line or separated by commas. */
export const parseModels = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\n,]/)
      .map((m) => m.trim())
      .filter(Boolean),
  ),
];

type PricingPlansFormProps = {
  plan: AdminPricingPlan | null;
  saving: boolean;
  onSave: (draft: PricingPlanDraft) => void;
  onCancel: () => void;
};

/** Create or edit one plan: name, displayed price, daily limit, allowed providers and models. */
export const PricingPlansForm = ({ plan, saving, onSave, onCancel }: PricingPlansFormProps) => {
  const isFree = plan?.name === FREE_PLAN_NAME;
  const [name, setName] = useState(plan?.name ?? '');
  const [price, setPrice] = useState(plan ? centsToText(plan.price_cents) : '0.00');
  const [limit, setLimit] = useState(
    plan?.daily_prompt_limit === null || plan === null ? '' : String(plan.daily_prompt_limit),
  );
  const [allowed, setAllowed] = useState<Set<string>>(new Set(plan?.allowed_providers ?? []));
  const [models, setModels] = useState((plan?.allowed_models ?? []).join('\n'));
  const [stripePrice, setStripePrice] = useState(plan?.stripe_price_id ?? '');
  const [maxFile, setMaxFile] = useState(megabytesText(plan?.max_file_bytes));
  const [quota, setQuota] = useState(megabytesText(plan?.storage_quota_bytes));
  const [maxSchedules, setMaxSchedules] = useState(numberText(plan?.max_schedules));
  const [minInterval, setMinInterval] = useState(numberText(plan?.min_schedule_interval_minutes));
  const [errors, setErrors] = useState<Errors>({});
  const modelsId = useId();
  const providersId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    const cents = parsePrice(price);
    const dailyLimit = parseLimit(limit);
    const maxFileBytes = parseMegabytes(maxFile, fileLimitCeilings.maxFileBytes);
    const quotaBytes = parseMegabytes(quota, fileLimitCeilings.storageQuotaBytes);
    const scheduleCount = parseBounded(maxSchedules, schedulePlanBounds.maxSchedules);
    const intervalMinutes = parseBounded(minInterval, schedulePlanBounds.minIntervalMinutes);
    if (!name.trim()) found.name = 'Give the plan a name';
    if (cents === null) found.price = 'Write the price like 9.99';
    if (dailyLimit === undefined) found.limit = 'A whole number, or blank for unlimited';
    if (maxFileBytes === undefined) {
      found.maxFile = `A size in MB above 0 and at most ${formatBytes(fileLimitCeilings.maxFileBytes)}, or blank for the default`;
    }
    if (quotaBytes === undefined) {
      found.quota = `A size in MB above 0 and at most ${formatBytes(fileLimitCeilings.storageQuotaBytes)}, or blank for the default`;
    }
    if (scheduleCount === undefined) {
      found.schedules = `A whole number from ${schedulePlanBounds.maxSchedules.min} to ${schedulePlanBounds.maxSchedules.max.toLocaleString('en')}, or blank for the default`;
    }
    if (intervalMinutes === undefined) {
      found.interval = `A whole number of minutes from ${schedulePlanBounds.minIntervalMinutes.min} to ${schedulePlanBounds.minIntervalMinutes.max.toLocaleString('en')} (a week), or blank for the default`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onSave({
      name: name.trim(),
      price_cents: cents!,
      daily_prompt_limit: dailyLimit!,
      allowed_providers: providerList.map((p) => p.id).filter((id) => allowed.has(id)),
      allowed_models: parseModels(models),
      stripe_price_id: stripePrice.trim() || null,
      max_file_bytes: maxFileBytes!,
      storage_quota_bytes: quotaBytes!,
      max_schedules: scheduleCount!,
      min_schedule_interval_minutes: intervalMinutes!,
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{plan ? `Edit ${plan.name}` : 'New plan'}</CardTitle>
        <CardDescription>
          Limits apply to every chat and proxy call from the next call on, file limits to the next
          upload, and schedule limits to the next schedule saved or resumed (existing schedules are
          kept). Leave providers and models empty to allow all of them.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-5" aria-label="Pricing plan">
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField
              label="Name"
              name="plan-name"
              maxLength={60}
              required
              value={name}
              disabled={isFree}
              error={errors.name}
              hint={isFree ? 'Free is the fallback plan and keeps its name.' : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            <FormField
              label="Displayed price (USD per month)"
              name="plan-price"
              inputMode="decimal"
              value={price}
              error={errors.price}
              onChange={(event) => setPrice(event.target.value)}
            />
            <FormField
              label="Daily prompt limit"
              name="plan-limit"
              inputMode="numeric"
              placeholder="Unlimited"
              value={limit}
              error={errors.limit}
              hint="Prompts per UTC day. Blank is unlimited."
              onChange={(event) => setLimit(event.target.value)}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Largest file (MB)"
              name="plan-max-file"
              inputMode="decimal"
              placeholder={`Default (${formatBytes(fileLimitDefaults.maxFileBytes)})`}
              value={maxFile}
              error={errors.maxFile}
              hint="The largest single upload. Blank uses the default."
              onChange={(event) => setMaxFile(event.target.value)}
            />
            <FormField
              label="Storage per user (MB)"
              name="plan-storage-quota"
              inputMode="decimal"
              placeholder={`Default (${formatBytes(fileLimitDefaults.storageQuotaBytes)})`}
              value={quota}
              error={errors.quota}
              hint="All of a user's files together. Blank uses the default."
              onChange={(event) => setQuota(event.target.value)}
            />
            <FormField
              label="Schedules per user"
              name="plan-max-schedules"
              inputMode="numeric"
              placeholder={`Default (${scheduleLimits.perUser})`}
              value={maxSchedules}
              error={errors.schedules}
              hint="Scheduled runs a user may keep. Blank uses the default."
              onChange={(event) => setMaxSchedules(event.target.value)}
            />
            <FormField
              label="Shortest schedule interval (minutes)"
              name="plan-min-schedule-interval"
              inputMode="numeric"
              placeholder={`Default (${scheduleLimits.minIntervalMinutes} min)`}
              value={minInterval}
              error={errors.interval}
              hint="How often a schedule may run at most. Blank uses the default."
              onChange={(event) => setMinInterval(event.target.value)}
            />
          </div>
          <fieldset className="grid gap-2" aria-describedby={providersId}>
            <legend className="text-sm font-medium">Allowed providers</legend>
            <p id={providersId} className="text-xs text-muted-foreground">
              None ticked allows every provider.
            </p>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {providerList.map((provider) => (
                <label key={provider.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={allowed.has(provider.id)}
                    onChange={(event) => {
                      const next = new Set(allowed);
                      if (event.target.checked) next.add(provider.id);
                      else next.delete(provider.id);
                      setAllowed(next);
                    }}
                  />
                  {provider.name}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-2">
            <Label htmlFor={modelsId}>Allowed models</Label>
            <Textarea
              id={modelsId}
              rows={3}
              value={models}
              placeholder={'gpt-5-mini\nclaude-3-5-haiku-latest'}
              aria-describedby={`${modelsId}-hint`}
              onChange={(event) => setModels(event.target.value)}
            />
            <p id={`${modelsId}-hint`} className="text-xs text-muted-foreground">
              Model ids, one per line or separated by commas. Empty allows every model.
            </p>
          </div>
          <FormField
            label="Stripe price id (optional)"
            name="plan-stripe-price"
            placeholder="price_…"
            value={stripePrice}
            hint="Set it to sell the plan through Stripe Checkout; leave it empty for plans admins assign."
            onChange={(event) => setStripePrice(event.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" disabled={saving}>
              {plan ? 'Save plan' : 'Create plan'}
            </Button>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
};

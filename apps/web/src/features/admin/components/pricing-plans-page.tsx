import { Gauge, Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FREE_PLAN_NAME, type AdminPricingPlan } from '@chorus/shared/api/plans';
import { scheduleLimits } from '@chorus/shared/api/schedules';
import { formatBytes } from '@chorus/shared/bytes';
import { fileLimitDefaults } from '@chorus/shared/limits';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import { useDeletePricingPlan } from '../api/delete-pricing-plan';
import { usePricingPlans } from '../api/get-pricing-plans';
import { useSavePricingPlan } from '../api/save-pricing-plan';
import { PricingPlansForm, type PricingPlanDraft } from './pricing-plans-form';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { formatUsdCents } from '@/lib/format';

const formatPrice = (cents: number) =>
  cents === 0 ? 'Free of charge' : `${formatUsdCents(cents)} / month`;

const listOrAll = (items: string[], all: string, format = (v: string) => v) =>
  items.length === 0 ? all : items.map(format).join(', ');

/** A plan's file limit, or the instance default it falls back to. */
const bytesOrDefault = (bytes: number | null, fallback: number) =>
  bytes === null ? `Default (${formatBytes(fallback)})` : formatBytes(bytes);

/** A plan's schedule limit, or the instance default it falls back to. */
const countOrDefault = (value: number | null, fallback: number, unit = '') =>
  value === null
    ? `Default (${fallback.toLocaleString()}${unit})`
    : `${value.toLocaleString()}${unit}`;

type Editing = { plan: AdminPricingPlan | null } | null;

export const PricingPlansPage = () => {
  const plans = usePricingPlans();
  const save = useSavePricingPlan();
  const remove = useDeletePricingPlan();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminPricingPlan | null>(null);

  const onSave = (draft: PricingPlanDraft) => {
    const plan = editing?.plan ?? null;
    save.mutate(plan ? { id: plan.id, plan: draft } : { id: null, plan: draft }, {
      onSuccess: (saved) => {
        toast.success(plan ? `${saved.name} saved` : `${saved.name} created`);
        setEditing(null);
      },
      onError: (error) =>
        toast.error(plan ? `Could not save ${plan.name}` : 'Could not create the plan', {
          description: errorMessage(error),
        }),
    });
  };

  const onDelete = (plan: AdminPricingPlan) => {
    setDeleting(null);
    remove.mutate(plan.id, {
      onSuccess: ({ moved_to_free }) =>
        toast.success(`${plan.name} deleted`, {
          description:
            moved_to_free === 0
              ? 'Nobody was on it.'
              : `${moved_to_free} ${moved_to_free === 1 ? 'user was' : 'users were'} moved to ${FREE_PLAN_NAME}.`,
        }),
      onError: (error) =>
        toast.error(`Could not delete ${plan.name}`, { description: errorMessage(error) }),
    });
  };

  return (
    <div>
      <PageHeader
        title="Pricing plans"
        description="The plans users are on: displayed price, daily prompt limit, file limits and the providers and models they allow. Free is the fallback for anyone without a plan. Every change is written to the audit log."
        actions={
          editing ? null : (
            <Button onClick={() => setEditing({ plan: null })}>
              <Plus aria-hidden="true" /> New plan
            </Button>
          )
        }
      />
      {editing ? (
        <div className="mb-6">
          <PricingPlansForm
            key={editing.plan?.id ?? 'new'}
            plan={editing.plan}
            saving={save.isPending}
            onSave={onSave}
            onCancel={() => setEditing(null)}
          />
        </div>
      ) : null}
      {plans.isPending ? (
        <TableLoading label="Loading the plans" />
      ) : plans.isError ? (
        <TableLoadError what="The plans" error={plans.error} />
      ) : plans.data.plans.length === 0 ? (
        <EmptyState icon={Gauge} title="No plans yet">
          Create a plan to give users a daily prompt limit or a set of providers.
        </EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label="Pricing plans">
          {plans.data.plans.map((plan) => {
            const isFree = plan.name === FREE_PLAN_NAME;
            return (
              <li
                key={plan.id}
                aria-label={plan.name}
                className="grid gap-3 rounded-xl border bg-card p-5 shadow-sm sm:grid-cols-[1fr_auto]"
              >
                <div className="grid gap-2">
                  <p className="flex flex-wrap items-baseline gap-x-3 font-medium">
                    {plan.name}
                    <span className="text-sm font-normal text-muted-foreground">
                      {formatPrice(plan.price_cents)}
                    </span>
                    {isFree ? (
                      <span className="rounded bg-muted px-1.5 py-0.5 text-xs font-normal">
                        Fallback plan
                      </span>
                    ) : null}
                  </p>
                  <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                    <div>
                      <dt className="inline text-muted-foreground">Daily prompts: </dt>
                      <dd className="inline">
                        {plan.daily_prompt_limit === null
                          ? 'Unlimited'
                          : plan.daily_prompt_limit.toLocaleString()}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Users: </dt>
                      <dd className="inline">{plan.user_count}</dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Providers: </dt>
                      <dd className="inline">
                        {listOrAll(plan.allowed_providers, 'All', providerName)}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Models: </dt>
                      <dd className="inline break-all">{listOrAll(plan.allowed_models, 'All')}</dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Largest file: </dt>
                      <dd className="inline">
                        {bytesOrDefault(plan.max_file_bytes, fileLimitDefaults.maxFileBytes)}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Storage per user: </dt>
                      <dd className="inline">
                        {bytesOrDefault(
                          plan.storage_quota_bytes,
                          fileLimitDefaults.storageQuotaBytes,
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Schedules per user: </dt>
                      <dd className="inline">
                        {countOrDefault(plan.max_schedules, scheduleLimits.perUser)}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-muted-foreground">Shortest schedule interval: </dt>
                      <dd className="inline">
                        {countOrDefault(
                          plan.min_schedule_interval_minutes,
                          scheduleLimits.minIntervalMinutes,
                          ' min',
                        )}
                      </dd>
                    </div>
                    {plan.stripe_price_id ? (
                      <div>
                        <dt className="inline text-muted-foreground">Stripe price: </dt>
                        <dd className="inline font-mono text-xs">{plan.stripe_price_id}</dd>
                      </div>
                    ) : null}
                  </dl>
                </div>
                <div className="flex items-start gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setEditing({ plan })}
                    aria-label={`Edit ${plan.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={isFree || remove.isPending}
                    title={isFree ? 'Free is the fallback plan and cannot be deleted' : undefined}
                    onClick={() => setDeleting(plan)}
                    aria-label={`Delete ${plan.name}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'the plan'}?`}
        confirmLabel="Delete plan"
        destructive
        onConfirm={() => deleting && onDelete(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting && deleting.user_count > 0
          ? `Its ${deleting.user_count} ${deleting.user_count === 1 ? 'user moves' : 'users move'} to ${FREE_PLAN_NAME} and get its limits at once.`
          : 'Nobody is on it. This cannot be undone.'}
      </ConfirmDialog>
    </div>
  );
};

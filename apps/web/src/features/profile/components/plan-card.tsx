import { toast } from 'sonner';
import type { PricingPlan } from '@chorus/shared/api/profile';
import { planMessages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { useBilling } from '../api/get-billing';
import { useProfileUsage } from '../api/get-profile-usage';
import { formatDate, formatUsdCents } from '@/lib/format';

export const formatPrice = (cents: number) =>
  cents === 0 ? 'Free of charge' : `${formatUsdCents(cents)} per month`;

/** "5 h 12 min" until `iso`, rounded up to the minute. */
export const timeUntil = (iso: string, now = Date.now()) => {
  const minutes = Math.max(1, Math.ceil((Date.parse(iso) - now) / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
};

const statusLabel: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment overdue',
  canceled: 'Cancelled',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired',
};

const TodayUsage = ({ userId }: { userId: string }) => {
  const usage = useProfileUsage(userId);
  if (usage.isPending) return <Spinner className="size-4" label="Loading today's usage" />;
  if (usage.isError) {
    return (
      <p className="text-sm text-destructive">
        Today&apos;s usage could not be loaded: {errorMessage(usage.error)}
      </p>
    );
  }
  const { count, limit, resets_at } = usage.data;
  const share = limit ? Math.min(1, count / limit) : 0;
  return (
    <div className="grid gap-2">
      <p className="text-sm">
        {limit === null ? (
          <>
            <span className="font-medium">{count.toLocaleString()}</span> prompts today (no daily
            limit)
          </>
        ) : (
          <>
            <span className="font-medium">{count.toLocaleString()}</span> of{' '}
            {limit.toLocaleString()} prompts used today
          </>
        )}
      </p>
      {limit !== null ? (
        <div
          role="progressbar"
          aria-label="Prompts used today"
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(count, limit)}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={share >= 1 ? 'h-full bg-destructive' : 'h-full bg-primary'}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      ) : null}
      <p className="text-xs text-muted-foreground">
        The count resets at 00:00 UTC (in {timeUntil(resets_at)}).
      </p>
    </div>
  );
};

const Subscription = ({ userId, currentPlanId }: { userId: string; currentPlanId: string }) => {
  const billing = useBilling(userId);
  const checkout = useCreateCheckoutSession();
  if (billing.isPending) return <Spinner className="size-4" label="Loading your subscription" />;
  if (billing.isError) {
    return (
      <p className="text-sm text-destructive">
        Your subscription could not be loaded: {errorMessage(billing.error)}
      </p>
    );
  }
  const { payments_enabled, subscription, plans } = billing.data;
  const upgrades = plans.filter((p) => p.id !== currentPlanId);
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        <span className="text-muted-foreground">Subscription: </span>
        {subscription ? (
          <>
            <span className="font-medium">
              {statusLabel[subscription.status] ?? subscription.status}
            </span>
            {subscription.plan_name ? ` (${subscription.plan_name})` : null}
            {subscription.current_period_end
              ? `, current period ends ${formatDate(subscription.current_period_end)}`
              : null}
          </>
        ) : (
          'none'
        )}
      </p>
      {!payments_enabled ? (
        <p className="text-sm text-muted-foreground">{planMessages.paymentsNotConfigured}</p>
      ) : upgrades.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {upgrades.map((plan) => (
            <Button
              key={plan.id}
              variant="outline"
              size="sm"
              disabled={checkout.isPending}
              onClick={() =>
                checkout.mutate(plan.id, {
                  onError: (error) =>
                    toast.error('Could not start the checkout', {
                      description: errorMessage(error),
                    }),
                })
              }
            >
              Upgrade to {plan.name} ({formatPrice(plan.price_cents)})
            </Button>
          ))}
        </div>
      ) : null}
    </div>
  );
};

/** The plan the user's prompts count against, today's usage, and the subscription. */
export const PlanCard = ({ plan, userId }: { plan: PricingPlan; userId: string }) => {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Plan and usage</CardTitle>
        <CardDescription>
          Every chat message and proxy call counts as one prompt against your plan.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">Plan</dt>
            <dd className="mt-1 font-medium">{plan.name}</dd>
            <dd className="text-xs text-muted-foreground">{formatPrice(plan.price_cents)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Daily prompts</dt>
            <dd className="mt-1 font-medium">
              {plan.daily_prompt_limit === null
                ? 'Unlimited'
                : plan.daily_prompt_limit.toLocaleString()}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Providers</dt>
            <dd className="mt-1">
              {plan.allowed_providers.length === 0
                ? 'All providers'
                : plan.allowed_providers.map(providerName).join(', ')}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Models</dt>
            <dd className="mt-1 break-all">
              {plan.allowed_models.length === 0 ? 'All models' : plan.allowed_models.join(', ')}
            </dd>
          </div>
        </dl>
        <TodayUsage userId={userId} />
        <Subscription userId={userId} currentPlanId={plan.id} />
        <div className="flex flex-wrap gap-2 border-t pt-4">
          <LinkButton to="/copy-api-keys" variant="outline" size="sm">
            Your API keys
          </LinkButton>
          <LinkButton to="/chat" variant="outline" size="sm">
            Default provider and model (in the chat)
          </LinkButton>
        </div>
      </CardContent>
    </Card>
  );
};

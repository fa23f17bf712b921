import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsDay, ProviderShare } from '@chorus/shared/api/analytics';
import { providers, isProviderId } from '@chorus/shared/providers';
import { providerName } from '@/lib/providers';

/**
 * The charts of /admin/analytics. recharts is large; this module is only reached from the
 * lazily loaded analytics page, so it never enters the chat bundle.
 */

const CHART_HEIGHT = 240;
const axisTick = { fontSize: 12, fill: 'currentColor' };
const shortDate = (iso: string) => iso.slice(5);
const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;

const Frame = ({ title, children }: { title: string; children: React.ReactElement }) => (
  <figure className="rounded-xl border bg-card p-4 shadow-sm" aria-label={title}>
    <figcaption className="mb-3 text-sm font-medium">{title}</figcaption>
    <div className="text-muted-foreground" style={{ height: CHART_HEIGHT }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  </figure>
);

export const ActiveUsersChart = ({ days }: { days: AnalyticsDay[] }) => (
  <Frame title="Daily active users">
    <LineChart data={days} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
      <XAxis dataKey="date" tickFormatter={shortDate} tick={axisTick} />
      <YAxis allowDecimals={false} tick={axisTick} />
      <Tooltip />
      <Line
        type="monotone"
        dataKey="active_users"
        name="Active users"
        stroke="#6366f1"
        strokeWidth={2}
        dot={false}
        isAnimationActive={false}
      />
    </LineChart>
  </Frame>
);

export const MessagesChart = ({ days }: { days: AnalyticsDay[] }) => (
  <Frame title="Messages and AI calls per day">
    <BarChart data={days} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
      <XAxis dataKey="date" tickFormatter={shortDate} tick={axisTick} />
      <YAxis allowDecimals={false} tick={axisTick} />
      <Tooltip />
      <Legend />
      <Bar dataKey="messages" name="Messages" fill="#0ea5e9" isAnimationActive={false} />
      <Bar dataKey="calls" name="AI calls" fill="#a855f7" isAnimationActive={false} />
    </BarChart>
  </Frame>
);

export const ErrorRateChart = ({ days }: { days: AnalyticsDay[] }) => (
  <Frame title="Error rate of AI calls per day">
    <LineChart data={days} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
      <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
      <XAxis dataKey="date" tickFormatter={shortDate} tick={axisTick} />
      <YAxis tickFormatter={percent} domain={[0, 1]} tick={axisTick} />
      <Tooltip formatter={(v) => percent(Number(v))} />
      <Line
        type="monotone"
        dataKey="error_rate"
        name="Error rate"
        stroke="#ef4444"
        strokeWidth={2}
        dot={false}
        isAnimationActive={false}
      />
    </LineChart>
  </Frame>
);

const colorOf = (provider: string) =>
  isProviderId(provider) ? providers[provider].color : '#94a3b8';

/**
 * A donut without labels on the slices (small slices' labels ran into each other) and, beside
 * it, a list of every provider with its share and calls: text that never overlaps, and that a
 * screen reader can read.
 */
export const ProviderShareChart = ({ shares }: { shares: ProviderShare[] }) => (
  <figure
    className="rounded-xl border bg-card p-4 shadow-sm"
    aria-label="Provider share of AI calls"
  >
    <figcaption className="mb-3 text-sm font-medium">Provider share of AI calls</figcaption>
    <div className="grid items-center gap-4 sm:grid-cols-[minmax(0,1fr)_auto]">
      <div className="text-muted-foreground" style={{ height: CHART_HEIGHT }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {/* Hidden from assistive technology (the list beside it says the same), so nothing in
              it may take focus: recharts makes the chart and the pie focusable by default. */}
          <PieChart accessibilityLayer={false}>
            <Tooltip formatter={(v, name) => [`${Number(v).toLocaleString()} calls`, name]} />
            <Pie
              data={shares.map((s) => ({ ...s, name: providerName(s.provider) }))}
              dataKey="calls"
              nameKey="name"
              innerRadius="50%"
              outerRadius="80%"
              paddingAngle={shares.length > 1 ? 1 : 0}
              isAnimationActive={false}
              rootTabIndex={-1}
            >
              {shares.map((s) => (
                <Cell key={s.provider} fill={colorOf(s.provider)} />
              ))}
            </Pie>
          </PieChart>
        </ResponsiveContainer>
      </div>
      <ul className="grid content-center gap-2 text-sm">
        {shares.map((s) => (
          <li key={s.provider} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="inline-block size-2.5 shrink-0 rounded-full"
              style={{ backgroundColor: colorOf(s.provider) }}
            />
            <span className="min-w-0 flex-1 truncate">{providerName(s.provider)}</span>
            <span className="tabular-nums">{percent(s.share)}</span>
            <span className="w-20 text-right text-muted-foreground tabular-nums">
              {s.calls.toLocaleString()} {s.calls === 1 ? 'call' : 'calls'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  </figure>
);

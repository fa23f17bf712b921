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

export const ProviderShareChart = ({ shares }: { shares: ProviderShare[] }) => (
  <Frame title="Provider share of AI calls">
    <PieChart>
      <Tooltip formatter={(v, name) => [`${Number(v).toLocaleString()} calls`, name]} />
      <Legend />
      <Pie
        data={shares.map((s) => ({ ...s, name: providerName(s.provider) }))}
        dataKey="calls"
        nameKey="name"
        outerRadius="75%"
        isAnimationActive={false}
        label={({ percent: p }) => percent(Number(p ?? 0))}
      >
        {shares.map((s) => (
          <Cell key={s.provider} fill={colorOf(s.provider)} />
        ))}
      </Pie>
    </PieChart>
  </Frame>
);

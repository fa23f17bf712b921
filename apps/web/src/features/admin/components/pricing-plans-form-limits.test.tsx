import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import { MB } from '@chorus/shared/limits';
import { PricingPlansForm } from './pricing-plans-form';

const plan: AdminPricingPlan = {
  id: 'p1',
  name: 'Team',
  price_cents: 900,
  daily_prompt_limit: null,
  allowed_providers: [],
  allowed_models: [],
  stripe_price_id: null,
  max_file_bytes: 25 * MB,
  storage_quota_bytes: null,
  max_schedules: 5,
  min_schedule_interval_minutes: null,
  user_count: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the pricing plan form’s file limits', () => {
  it('shows a plan’s limits in MB, blank for the default, and saves them in bytes', () => {
    const onSave = vi.fn();
    render(<PricingPlansForm plan={plan} saving={false} onSave={onSave} onCancel={() => {}} />);
    expect(field('Largest file (MB)').value).toBe('25');
    expect(field('Storage per user (MB)').value).toBe('');
    expect(field('Storage per user (MB)').placeholder).toBe('Default (100 MB)');

    fireEvent.change(field('Largest file (MB)'), { target: { value: '' } });
    fireEvent.change(field('Storage per user (MB)'), { target: { value: '512.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ max_file_bytes: null, storage_quota_bytes: 512.5 * MB }),
    );
  });

  it('refuses a size that is not one, saying what to write', () => {
    const onSave = vi.fn();
    render(<PricingPlansForm plan={plan} saving={false} onSave={onSave} onCancel={() => {}} />);
    fireEvent.change(field('Largest file (MB)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText(/A size in MB above 0 and at most 5 GB/)).toBeTruthy();
  });
});

describe('the pricing plan form’s schedule limits', () => {
  it('shows a plan’s limits, blank for the default, and saves them as numbers or null', () => {
    const onSave = vi.fn();
    render(<PricingPlansForm plan={plan} saving={false} onSave={onSave} onCancel={() => {}} />);
    expect(field('Schedules per user').value).toBe('5');
    expect(field('Shortest schedule interval (minutes)').value).toBe('');
    expect(field('Schedules per user').placeholder).toBe('Default (20)');
    expect(field('Shortest schedule interval (minutes)').placeholder).toBe('Default (1 min)');

    fireEvent.change(field('Schedules per user'), { target: { value: '' } });
    fireEvent.change(field('Shortest schedule interval (minutes)'), { target: { value: ' 60 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ max_schedules: null, min_schedule_interval_minutes: 60 }),
    );
  });

  it('saves no schedules at all as 0, and a new plan’s blank limits as the defaults', () => {
    const onSave = vi.fn();
    const { unmount } = render(
      <PricingPlansForm plan={plan} saving={false} onSave={onSave} onCancel={() => {}} />,
    );
    fireEvent.change(field('Schedules per user'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).toHaveBeenLastCalledWith(expect.objectContaining({ max_schedules: 0 }));
    unmount();

    render(<PricingPlansForm plan={null} saving={false} onSave={onSave} onCancel={() => {}} />);
    fireEvent.change(field('Name'), { target: { value: 'Starter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create plan' }));
    expect(onSave).toHaveBeenLastCalledWith(
      expect.objectContaining({ max_schedules: null, min_schedule_interval_minutes: null }),
    );
  });

  it('refuses a count or an interval out of bounds, saying what to write', () => {
    const onSave = vi.fn();
    render(<PricingPlansForm plan={plan} saving={false} onSave={onSave} onCancel={() => {}} />);
    fireEvent.change(field('Schedules per user'), { target: { value: '1001' } });
    fireEvent.change(field('Shortest schedule interval (minutes)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(
      screen.getByText(/A whole number from 0 to 1,000, or blank for the default/),
    ).toBeTruthy();
    expect(screen.getByText(/A whole number of minutes from 1 to 10,080 \(a week\)/)).toBeTruthy();

    fireEvent.change(field('Schedules per user'), { target: { value: '2.5' } });
    fireEvent.change(field('Shortest schedule interval (minutes)'), { target: { value: '10081' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(field('Schedules per user'), { target: { value: '1000' } });
    fireEvent.change(field('Shortest schedule interval (minutes)'), { target: { value: '10080' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ max_schedules: 1000, min_schedule_interval_minutes: 10080 }),
    );
  });
});

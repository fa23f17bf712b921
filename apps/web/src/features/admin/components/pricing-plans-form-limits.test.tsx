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

import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import MemorySettings from './MemorySettings.svelte';
import type { Settings } from '../lib/api';
import { fieldFor } from '../lib/stores/settings.svelte';

function draft(): Settings {
  return {
    memory: { dream: { everyHours: 4, maxTokens: 60000, maxMinutes: 5, maxToolCalls: 24 }, review: { enabled: false, expireHours: 0, onExpiry: 'discard' } },
  } as unknown as Settings;
}

describe('memory settings', () => {
  it("edits Dream's schedule and budgets and the review switch in the draft", async () => {
    const d = $state(draft());
    render(MemorySettings, { props: { d, errors: {} } });
    const every = screen.getByLabelText('Dream every (hours)') as HTMLInputElement;
    expect(every.value).toBe('4');
    await fireEvent.input(every, { target: { value: '2' } });
    expect(d.memory.dream.everyHours).toBe(2);
    await fireEvent.input(screen.getByLabelText('Tool calls per pass'), { target: { value: '8' } });
    expect(d.memory.dream.maxToolCalls).toBe(8);
    // The expiry only matters with review on.
    const expiry = screen.getByLabelText(/Unreviewed changes expire after/) as HTMLInputElement;
    expect(expiry.disabled).toBe(true);
    await fireEvent.click(screen.getByLabelText('Review memory changes'));
    expect(d.memory.review.enabled).toBe(true);
    expect(expiry.disabled).toBe(false);
  });

  it("shows the backend's problem beside its field", () => {
    const d = draft();
    const key = fieldFor('memory.dream.maxMinutes', d);
    expect(key).toBe('memory.dream.maxMinutes');
    render(MemorySettings, { props: { d, errors: { [key]: { text: 'must be between 1 and 120, got 0' } } } });
    expect(screen.getByRole('alert').textContent).toContain('between 1 and 120');
    expect(screen.getByLabelText(/Minutes per pass/).getAttribute('aria-invalid')).toBe('true');
  });
});

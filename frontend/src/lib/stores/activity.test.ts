// The Activity view's store and filters (docs/design/safety-defaults.md#audit-log) and the approval settings store.
import { describe, expect, it, vi } from 'vitest';
import { ACTIVITY_LIMIT, createActivityStore, newestFirst, noFilters, toAuditFilter } from './activity.svelte';
import { createApprovalsStore, ruleRows } from './approvals.svelte';
import { fakeApi } from '../../test-fixtures';
import type { AuditEntry } from '../api';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  time: '2026-11-23T10:00:00Z',
  session: 's1',
  run: 'r1',
  callId: 'r1-1',
  tool: 'exec',
  args: { command: 'ls' },
  approval: 'auto',
  ok: true,
  durationMs: 3,
  resultSize: 10,
  ...over,
});

describe('activity filters', () => {
  it('sends only what is set, with the limit', () => {
    expect(toAuditFilter(noFilters())).toEqual({ limit: ACTIVITY_LIMIT });
    expect(toAuditFilter({ tool: 'exec', session: 's2', failed: true, day: '' }, 20)).toEqual({
      limit: 20,
      tool: 'exec',
      sessionId: 's2',
      failed: true,
    });
  });

  it('turns a day into local midnight to midnight', () => {
    const f = toAuditFilter({ ...noFilters(), day: '2026-03-09' });
    const since = new Date(f.since!);
    const until = new Date(f.until!);
    expect([since.getFullYear(), since.getMonth(), since.getDate(), since.getHours(), since.getMinutes()]).toEqual([2026, 2, 9, 0, 0]);
    expect([until.getFullYear(), until.getMonth(), until.getDate(), until.getHours()]).toEqual([2026, 2, 10, 0]);
    expect(toAuditFilter({ ...noFilters(), day: 'garbage' }).since).toBeUndefined();
  });

  it('orders newest first', () => {
    const list = [entry({ callId: 'a', time: '2026-11-23T10:00:00Z' }), entry({ callId: 'b', time: '2026-11-23T12:00:00+01:00' }), entry({ callId: 'c', time: '2026-11-23T11:30:00Z' })];
    expect(newestFirst(list).map((e) => e.callId)).toEqual(['c', 'b', 'a']);
  });
});

describe('activity store', () => {
  it('reads the log newest first, filters through the backend and keeps the menus', async () => {
    const fake = fakeApi();
    const all = [
      entry({ callId: 'a', tool: 'exec', session: 's1', time: '2026-11-23T10:00:00Z' }),
      entry({ callId: 'b', tool: 'read_file', session: 's2', ok: false, error: 'no such file', time: '2026-11-23T10:05:00Z' }),
    ];
    fake.mocks.activity.mockImplementation(async (f) =>
      all.filter((e) => (!f.tool || e.tool === f.tool) && (!f.failed || !e.ok) && (!f.sessionId || e.session === f.sessionId)),
    );
    const act = createActivityStore(fake.api);
    act.runFinished(); // not opened yet: nothing is read
    expect(fake.mocks.activity).not.toHaveBeenCalled();
    await act.refresh();
    expect(act.entries.map((e) => e.callId)).toEqual(['b', 'a']);
    expect(act.tools).toEqual(['exec', 'read_file']);
    expect(act.sessions).toEqual(['s1', 's2']);
    expect(act.filtered).toBe(false);

    await act.setFilters({ failed: true });
    expect(fake.mocks.activity).toHaveBeenLastCalledWith({ limit: ACTIVITY_LIMIT, failed: true });
    expect(act.entries.map((e) => e.callId)).toEqual(['b']);
    await act.setFilters({ tool: 'exec' });
    expect(act.entries).toEqual([]);
    expect(act.filtered).toBe(true);
    // The menus still offer every tool and chat seen.
    expect(act.tools).toEqual(['exec', 'read_file']);

    await act.clear();
    expect(act.entries).toHaveLength(2);
    act.toggle(act.entries[0]);
    expect(act.isOpen(act.entries[0])).toBe(true);
    expect(act.isOpen(act.entries[1])).toBe(false);
    act.toggle(act.entries[0]);
    expect(act.isOpen(act.entries[0])).toBe(false);
  });

  it('reads again when a run finishes once opened, and drops a stale answer', async () => {
    const fake = fakeApi();
    let release: (v: AuditEntry[]) => void = () => {};
    fake.mocks.activity.mockImplementationOnce(() => new Promise((r) => (release = r)));
    fake.mocks.activity.mockImplementation(async () => [entry({ callId: 'new' })]);
    const act = createActivityStore(fake.api);
    const slow = act.refresh();
    await act.refresh();
    release([entry({ callId: 'old' })]);
    await slow;
    expect(act.entries.map((e) => e.callId)).toEqual(['new']);
    act.runFinished();
    await vi.waitFor(() => expect(fake.mocks.activity).toHaveBeenCalledTimes(3));
  });

  it('shows the error when the log cannot be read', async () => {
    const fake = fakeApi();
    fake.mocks.activity.mockRejectedValue('audit: permission denied');
    const act = createActivityStore(fake.api);
    await act.refresh();
    expect(act.error).toBe('audit: permission denied');
    expect(act.loaded).toBe(true);
  });
});

describe('approval settings store', () => {
  it('lists rules per tool, saves mode and rules, and says where keys are kept', async () => {
    const fake = fakeApi();
    fake.mocks.approvalRules.mockResolvedValue({ mode: 'ask', always: ['read_file'], ask: ['exec'], never: ['mcp_x_rm'] });
    fake.mocks.secretStorage.mockResolvedValue('keyring');
    const ap = createApprovalsStore(fake.api);
    await ap.load();
    expect(ap.mode).toBe('ask');
    expect(ap.storage).toBe('keyring');
    expect(ap.rules).toEqual([
      { tool: 'exec', rule: 'ask' },
      { tool: 'mcp_x_rm', rule: 'never' },
      { tool: 'read_file', rule: 'always' },
    ]);
    expect(await ap.setMode('all')).toBe(true);
    expect(fake.mocks.setApprovalMode).toHaveBeenCalledWith('all');
    expect(await ap.setRule(' web_fetch ', 'never')).toBe(true);
    expect(fake.mocks.setToolApproval).toHaveBeenCalledWith('web_fetch', 'never');
    expect(await ap.setRule('exec', '')).toBe(true);
    expect(ap.rules.map((r) => r.tool)).toEqual(['mcp_x_rm', 'read_file', 'web_fetch']);
  });

  it('keeps the old mode when saving fails', async () => {
    const fake = fakeApi();
    fake.mocks.setApprovalMode.mockRejectedValue('set approval mode: read-only file system');
    const ap = createApprovalsStore(fake.api);
    await ap.load();
    expect(await ap.setMode('all')).toBe(false);
    expect(ap.mode).toBe('risky');
    expect(ap.error).toContain('read-only');
  });

  it('reads a tool named twice as its strongest rule', () => {
    expect(ruleRows({ always: ['exec'], never: ['exec'], ask: null })).toEqual([{ tool: 'exec', rule: 'never' }]);
  });
});

// Dream and the memory inbox in the window, against the dev build, the real Go backend and
// the scripted fake Ollama: Dream is a system row in Reminders (Run now, Pause, no Delete);
// with "Review memory changes" on, its pass waits in the Memory tab as hunks — one
// approved, one edited and approved, one rejected — and nothing reaches the file before
// that; the pass is in Activity with what it used of its budget.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthWindow, repoRoot, waitFor } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const edit = (old_text, new_text) => ({ toolCalls: [{ name: 'edit_memory', arguments: { file: 'MEMORY.md', old_text, new_text } }] });
// One Dream pass: three surgical edits of MEMORY.md, then done.
const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] }],
  replies: [
    edit('- Likes tea', '- Likes green tea (2026-11-27, chat)'),
    edit('- Lives in Porto', '- Lives in Lisbon (2026-11-27, chat)'),
    edit('- Has a cat named Tom\n', ''),
    { toolCalls: [{ name: 'done', arguments: { summary: 'updated tea and city, dropped the cat' } }] },
  ],
};
const seed = '# Memory\n\n- Likes tea\n\n- Works as a baker\n\n- Lives in Porto\n\n- Plays chess\n\n- Has a cat named Tom\n';

let app, page;
const win = hearthWindow(script, {
  config: { agents: { defaults: { embeddingModel: '' } }, memory: { review: { enabled: true, expireHours: 0, onExpiry: 'discard' } } },
  files: { 'data/hearth/workspace/memory/MEMORY.md': seed },
});
before(async () => ({ app, page } = await win.start()));
after(() => win.stop());

const onDisk = () => readFileSync(join(app.workspace, 'memory', 'MEMORY.md'), 'utf8');
const view = (name) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name }).click();
const dream = () => page.getByTestId('job-dream');


describe('Dream and the memory inbox', () => {
  test('Dream is a system job: run now, no delete; with review on its pass waits in the inbox', async () => {
    await view('Reminders');
    await dream().waitFor();
    assert.equal(await dream().getByRole('button', { name: 'Delete' }).count(), 0, 'a system job cannot be deleted');
    await dream().getByRole('button', { name: 'Run now' }).click();
    await waitFor(async () => /edits/.test(await dream().getByTestId('dream-last').textContent()), 'the last pass is shown');
    assert.match(await dream().getByTestId('dream-last').textContent(), /3 edits · .* of 60000 tokens · 4 of 24 tool calls/);
    await page.screenshot({ path: join(shots, 'dream-row.png') });
    assert.equal(onDisk(), seed, 'with review on, nothing is written before it is approved');
  });

  test('each hunk is approved, edited and approved, or rejected', async () => {
    await page.getByRole('tab', { name: 'Memory' }).click();
    const proposal = page.getByRole('region', { name: 'Proposed change to MEMORY.md by Dream' });
    const hunks = proposal.getByTestId('inbox-hunk');
    await waitFor(async () => (await hunks.count()) === 3, 'three hunks wait');
    await page.screenshot({ path: join(shots, 'memory-inbox.png') });

    // Approve the first: written at once, the rest untouched.
    await hunks.nth(0).getByRole('button', { name: 'Approve' }).click();
    await waitFor(() => onDisk().includes('- Likes green tea (2026-11-27, chat)'), 'the approved hunk is written');
    assert.ok(onDisk().includes('- Lives in Porto') && onDisk().includes('- Has a cat named Tom'));
    await waitFor(async () => (await hunks.count()) === 2, 'two hunks left');

    // Edit the next one before approving it: the edited text is what is written.
    await hunks.nth(0).getByRole('button', { name: 'Edit' }).click();
    const box = hunks.nth(0).getByRole('textbox', { name: 'The new text of this change' });
    await box.fill('- Lives in Lisbon since 2026 (chat)');
    await hunks.nth(0).getByRole('button', { name: 'Approve' }).click();
    await waitFor(() => onDisk().includes('- Lives in Lisbon since 2026 (chat)\n'), 'the edited hunk is written');
    assert.ok(!onDisk().includes('Porto'));

    // Reject the last: the cat stays, and the proposal is gone.
    await hunks.nth(0).getByRole('button', { name: 'Reject' }).click();
    await waitFor(async () => (await proposal.count()) === 0, 'the decided proposal leaves the inbox');
    assert.ok(onDisk().includes('- Has a cat named Tom'));
    assert.equal(
      onDisk(),
      '# Memory\n\n- Likes green tea (2026-11-27, chat)\n\n- Works as a baker\n\n- Lives in Lisbon since 2026 (chat)\n\n- Plays chess\n\n- Has a cat named Tom\n',
    );
  });

  test('Dream can be paused and resumed; its pass is in Activity with its budget', async () => {
    await view('Reminders');
    await dream().getByRole('button', { name: 'Pause' }).click();
    await waitFor(async () => (await dream().getAttribute('data-paused')) === 'true', 'paused');
    await dream().getByRole('button', { name: 'Resume' }).click();
    await waitFor(async () => (await dream().getAttribute('data-paused')) === 'false', 'resumed');

    await view('Activity');
    const row = page.locator('[data-testid="activity-row"][data-tool="dream"]');
    await row.first().waitFor();
    await row.first().getByRole('button').first().click();
    const text = await row.first().textContent();
    // What it used beside its budget: 4 tool calls of 24, its tokens of 60 000, 3 edits held for review.
    assert.match(text, /toolCalls\s*4\b/);
    assert.match(text, /"toolCalls": 24/);
    assert.match(text, /"tokens": 60000/);
    assert.match(text, /edits\s*3/);
    assert.match(text, /proposed\s*true/);
    await page.screenshot({ path: join(shots, 'dream-activity.png') });
  });
});

// A reminder as a person lives with it (dev build with its scheduler, the real Go backend,
// a scripted fake Ollama, and the fake notification daemon on the session bus): create it
// with a preset, edit it, let it finish, read the notification it raised — the reminder's
// name and the words the person wrote, not the model's Markdown — find it in the Done
// list, and click the notification to open the chat with the answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeNotifier, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });
const answer = '## Tea\n\n**The notes say** the hearth is warm — [see the notes](http://example.invalid).';
const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] }],
  replies: [{ content: answer, promptEvalCount: 300, evalCount: 12 }],
};

let chrome, ollama, notifier, app, page, context, errors;
before(async () => {
  chrome = await openBrowser();
  notifier = await startFakeNotifier();
  ollama = await startFakeOllama(undefined, script);
  app = await startHearth({ ollamaHost: ollama.host });
  ({ page, errors, context } = await openPage(chrome.browser, app.url));
  await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
});
after(async () => {
  await context?.close();
  await chrome?.close();
  await app?.stop();
  await ollama?.stop();
  await notifier?.stop();
});

const jobsFile = () => join(app.home, 'data', 'hearth', 'cron', 'jobs.json');
const storedJobs = () => (existsSync(jobsFile()) ? JSON.parse(readFileSync(jobsFile(), 'utf8')).jobs : []);
const job = (text) => page.locator('[data-testid^="job-"]').filter({ hasText: text });

describe('a reminder from start to finish', () => {
  test('create with a preset, edit, finish it, and read its notification', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Reminders' }).click();
    const form = page.getByRole('form', { name: 'New reminder' });
    await form.getByLabel('Name (optional)').fill('Tea');
    await form.getByLabel('Message').fill('Put the kettle on');
    await form.getByRole('button', { name: 'In 10 minutes' }).click();
    await form.getByRole('button', { name: 'Create' }).click();
    const item = job('Tea');
    await item.waitFor();
    assert.match(await item.getByTestId('reminder-next').innerText(), /in (9|10) minutes/);

    // Edit: the same form, filled; a preset changes only the schedule.
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit reminder' });
    assert.equal(await edit.getByLabel('Message').inputValue(), 'Put the kettle on');
    await edit.getByLabel('Message').fill('Make green tea for two');
    await edit.getByRole('button', { name: 'Every weekday at 8:30' }).click();
    await page.screenshot({ path: join(shots, 'reminder-edit.png') });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    // The list shows the saved reminder once the backend's change comes back.
    await item.getByTestId('reminder-schedule').filter({ hasText: /Weekdays at 08:30/ }).waitFor();
    assert.equal(storedJobs()[0].message, 'Make green tea for two');
    assert.equal(storedJobs()[0].schedule.expr, '30 8 * * 1-5');

    // Back to a one-shot, then Run now finishes it: it moves to Done.
    await item.getByRole('button', { name: 'Edit' }).click();
    await edit.getByRole('button', { name: 'Tomorrow at 9:00' }).click();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const id = (await item.getAttribute('data-testid')).replace(/^job-/, '');
    await item.getByRole('button', { name: 'Run now' }).click();
    const done = page.getByTestId(`done-${id}`);
    await done.waitFor({ timeout: 20000 });
    assert.match(await done.innerText(), /Tea[\s\S]*Done[\s\S]*ran /);
    assert.equal(await item.count(), 0);
    assert.equal(storedJobs()[0].done, true);
    await page.screenshot({ path: join(shots, 'reminders-done.png') });

    // The notification: the reminder's name and the person's own words, raised as the turn
    // started; the model's answer follows as a second, quiet one (low urgency).
    let shown = [];
    for (let i = 0; i < 200 && shown.length < 2; i++) {
      shown = await notifier.list();
      if (shown.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(shown.length, 2, JSON.stringify(shown));
    assert.equal(shown[0].title, 'Tea');
    assert.equal(shown[0].body, 'Make green tea for two');
    assert.equal(shown[0].app, 'Hearth');
    assert.equal(shown[0].urgency, 1);
    assert.equal(shown[1].title, 'Tea');
    assert.match(shown[1].body, /the hearth is warm/);
    assert.equal(shown[1].urgency, 0, 'the answer interrupts like the reminder');

    // Clicking it opens the chat with the answer (rendered, not raw Markdown).
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await notifier.click(shown[0].id);
    await page.getByTestId('msg-assistant').getByText('the hearth is warm').waitFor({ timeout: 15000 });
    // A reminder's words show as the reminder, not as a user's message.
    assert.equal(await page.getByTestId('msg-reminder').last().locator('.reminder-text').innerText(), 'Make green tea for two');

    // From the Done list, Open chat goes to the same answer.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Reminders' }).click();
    await done.getByRole('button', { name: 'Open chat' }).click();
    await page.getByTestId('msg-assistant').getByText('the hearth is warm').waitFor();
    assert.deepEqual(errors, []);
  });
});

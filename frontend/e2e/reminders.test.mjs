// The Reminders view as a person uses it, against the dev build (whose scheduler runs, as
// the desktop app's does), the real Go backend and a scripted fake Ollama: a reminder made
// in the form runs on time into its chat; Run now answers in its chat; pause, resume and
// delete reach jobs.json; the backend's refusal shows on the field; the background
// settings are saved. The tests share one Hearth and run in order (the fake answers its
// scripted replies in turn).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillMoment, hearthWindow } from './harness.mjs';

const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] }],
  replies: [
    // 1: the reminder due in a few seconds
    { content: 'Time to stretch: stand up and reach for the ceiling.', promptEvalCount: 300, evalCount: 12 },
    // 2: Run now
    { content: 'Have you watered the plants today?', promptEvalCount: 300, evalCount: 9 },
  ],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

const jobsFile = () => join(app.home, 'data', 'hearth', 'cron', 'jobs.json');
const storedJobs = () => (existsSync(jobsFile()) ? JSON.parse(readFileSync(jobsFile(), 'utf8')).jobs : []);
// The reminders still to come (finished one-shots stay in the file for the Done list).
const activeJobs = () => storedJobs().filter((j) => !j.done);
const form = () => page.getByRole('form', { name: 'New reminder' });
const job = (text) => page.locator('[data-testid^="job-"]').filter({ hasText: text });

async function openReminders() {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Reminders' }).click();
  await page.getByRole('heading', { name: 'Reminders', level: 1 }).waitFor();
}

describe('reminders', () => {
  test('a reminder made in the form is listed with its next run and runs on time into its chat', async () => {
    await openReminders();
    await page.getByText(/No reminders yet/).waitFor();
    const f = form();
    await f.getByLabel('Name (optional)').fill('Stretch');
    await f.getByLabel('Message').fill('Remind me to stretch');
    // Due in 8 seconds, in the window's own zone (a datetime-local value).
    const due = await page.evaluate(() => {
      const d = new Date(Date.now() + 8000);
      const p = (n) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await fillMoment(f.getByRole('group', { name: 'Date and time' }), due);
    await f.getByRole('button', { name: 'Create' }).click();

    const item = job('Stretch');
    await item.waitFor();
    assert.match(await item.getByTestId('reminder-schedule').innerText(), /^Once, /);
    assert.match(await item.getByTestId('reminder-next').innerText(), /in \d+ seconds/);
    assert.match(await item.getByTestId('reminder-last').innerText(), /Not run yet/);
    const id = (await item.getAttribute('data-testid')).replace(/^job-/, '');
    assert.equal(storedJobs()[0].id, id);
    assert.equal(storedJobs()[0].name, 'Stretch');

    // It runs by itself; a one-shot that succeeded moves to the Done list (a "jobs" event refreshes it).
    await item.waitFor({ state: 'detached', timeout: 30000 });
    await page.getByTestId(`done-${id}`).waitFor();
    assert.equal(storedJobs().length, 1);
    assert.equal(storedJobs()[0].done, true);
    // The "reminder" event lists its chat; opening it shows the answer.
    const chats = page.getByRole('list', { name: 'Chats' });
    await chats.getByText('Remind me to stretch').click();
    await page.getByTestId('msg-assistant').getByText('Time to stretch').waitFor();
    // A reminder's words show as the reminder, not as a user's message.
    assert.equal(await page.getByTestId('msg-reminder').last().locator('.reminder-text').innerText(), 'Remind me to stretch');
  });

  test('Run now answers in its chat; pause, resume and delete reach jobs.json', async () => {
    await openReminders();
    const f = form(); // no reminder left: the form is open, its button off
    assert.equal(await page.getByRole('button', { name: 'New reminder' }).isDisabled(), true);
    await f.getByLabel('Name (optional)').fill('Plants');
    await f.getByLabel('Message').fill('Ask me whether I watered the plants');
    await f.getByRole('radio', { name: 'Every' }).check();
    await f.getByLabel('Interval').fill('2');
    await f.getByLabel('Unit').selectOption('hours');
    await f.getByRole('button', { name: 'Create' }).click();

    const item = job('Plants');
    await item.waitFor();
    assert.equal(await item.getByTestId('reminder-schedule').innerText(), 'Every 2 hours');
    assert.match(await item.getByTestId('reminder-next').innerText(), /in 2 hours/);
    await form().waitFor({ state: 'detached' });

    await item.getByRole('button', { name: 'Run now' }).click();
    await item.getByTestId('reminder-last').getByText('Done').waitFor({ timeout: 20000 });
    await item.getByRole('button', { name: 'Run now' }).waitFor(); // no longer "Running…"
    assert.match(await item.getByTestId('reminder-next').innerText(), /in 2 hours/); // its schedule stays
    await item.getByText('History (1)').click();
    await item.locator('.history li').first().getByText('Done').waitFor();

    await item.getByRole('button', { name: 'Open chat' }).click();
    await page.getByTestId('msg-assistant').getByText('Have you watered the plants today?').waitFor();

    await openReminders();
    await item.getByRole('button', { name: 'Pause' }).click();
    await page.locator('[data-testid^="job-"][data-paused="true"]').filter({ hasText: 'Plants' }).waitFor();
    assert.equal((await item.getByTestId('reminder-next').innerText()).trim(), 'Paused');
    assert.equal(activeJobs()[0].paused, true);
    await item.getByRole('button', { name: 'Resume' }).click();
    await page.locator('[data-testid^="job-"][data-paused="false"]').filter({ hasText: 'Plants' }).waitFor();
    assert.equal(activeJobs()[0].paused, undefined);

    await item.getByRole('button', { name: 'Delete' }).click();
    await item.getByText('Delete “Plants”?').waitFor();
    assert.equal(activeJobs().length, 1); // not before the confirmation
    await item.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    assert.deepEqual(activeJobs(), []);
  });

  test("the backend's refusal shows on its field and nothing typed is lost", async () => {
    await openReminders();
    const f = form(); // the list is empty again: the form is open
    await f.getByLabel('Message').fill('Stand-up');
    await f.getByRole('radio', { name: 'Cron' }).check();
    // Five fields, so the window lets it through; gronx refuses minute 99.
    await f.getByLabel('Cron expression').fill('99 9 * * 1-5');
    await f.getByLabel('Time zone').fill('Europe/Berlin');
    await f.getByRole('button', { name: 'Create' }).click();
    await f.locator('[data-field="expr"]').getByText(/cron expression "99 9 \* \* 1-5" is not valid \(hint: five fields/).waitFor();
    assert.equal(await f.getByLabel('Message').inputValue(), 'Stand-up');
    assert.deepEqual(activeJobs(), []);
    // Fixing it sends it; the schedule is worded with its zone.
    await f.getByLabel('Cron expression').fill('30 9 * * 1-5');
    assert.equal(await f.locator('[data-field="expr"]').count(), 0);
    await f.getByRole('button', { name: 'Create' }).click();
    const item = job('Stand-up');
    await item.waitFor();
    assert.equal(await item.getByTestId('reminder-schedule').innerText(), 'Weekdays at 09:30 (Europe/Berlin)');
    assert.equal(activeJobs()[0].schedule.tz, 'Europe/Berlin');
    // With a reminder listed, the form closes and New reminder opens it again.
    await form().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New reminder' }).click();
    await form().getByRole('button', { name: 'Cancel' }).click();
    await form().waitFor({ state: 'detached' });
  });

  test('Pause all stops every reminder until resumed', async () => {
    await openReminders();
    await page.getByRole('button', { name: 'Pause all' }).click();
    await page.getByTestId('reminders-paused').waitFor();
    await page.getByTestId('reminders-paused').getByRole('button', { name: 'Resume all' }).click();
    await page.getByTestId('reminders-paused').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Pause all' }).waitFor();
  });

  test('Settings save the heartbeat, missed runs, tray and login at once', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Background' }).click();
    const section = page.getByTestId('background-settings');
    const saved = page.locator('[data-testid="settings-status"][data-state="saved"]');
    const interval = section.getByLabel('Every (minutes)');
    await interval.fill('15');
    await interval.press('Tab');
    await saved.waitFor();
    await section.getByLabel('Reminders missed while Hearth was closed').selectOption('skip');
    await section.getByLabel(/Closing the window keeps Hearth/).uncheck();
    await section.getByLabel(/Start Hearth in the tray when I log in/).check();
    await saved.waitFor();
    const autostartEntry = join(app.home, 'config', 'autostart', 'hearth.desktop');
    const deadline = Date.now() + 5000;
    let cfg;
    do {
      cfg = JSON.parse(readFileSync(app.configPath, 'utf8'));
      // The entry is written right after the config is saved: wait for both.
      if (cfg.ui?.launchAtLogin && existsSync(autostartEntry)) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    // Only what changed is written (config.Save merges): the heartbeat stays on by default.
    assert.equal(cfg.heartbeat.intervalMinutes, 15);
    assert.notEqual(cfg.heartbeat.enabled, false);
    assert.equal(cfg.schedule.missedRuns, 'skip');
    assert.equal(cfg.ui.closeToTray, false);
    assert.equal(cfg.ui.launchAtLogin, true);
    assert.ok(existsSync(autostartEntry), 'autostart entry written');
    // The values come back when the view opens again.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Reminders' }).click();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    assert.equal(await page.getByTestId('background-settings').getByLabel('Every (minutes)').inputValue(), '15');
    assert.deepEqual(errors, []);
  });
});

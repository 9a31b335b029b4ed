// Reminders missed while Hearth was closed, as a person meets them: jobs.json holds
// reminders whose time passed before Hearth starts; the dev build's scheduler catches them
// up (or skips them) at start, before the window has loaded, and the window still tells
// which ones, when they were due and what happened, until dismissed. Each test starts its
// own Hearth on a fresh home with a scripted fake Ollama, and stops it before the next (one
// desktop Hearth at a time: a second would hand over to the first).
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, startFakeNotifier, startFakeOllama, startHearth } from './harness.mjs';

const model = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] };
const ago = (minutes) => new Date(Date.now() - minutes * 60_000).toISOString();
/** How the window words a time of today (lib/datetime's clock: en, 24-hour, no seconds). */
const hhmm = (iso) => new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
// How the window words a due time: the time alone today, with the day before it otherwise
// (a run just after midnight has reminders due yesterday).
const dueAt = (iso) =>
  new Date(iso).toDateString() === new Date().toDateString()
    ? hhmm(iso)
    : `${new Intl.DateTimeFormat('en', { weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(iso))}, ${hhmm(iso)}`;

/** Two reminders due while Hearth was closed, and one still ahead. */
function jobsFile() {
  const brief = ago(90);
  const call = ago(30);
  const jobs = [
    { id: 'brief001', name: 'Morning brief', message: 'Give me my morning brief', schedule: { kind: 'every', everySeconds: 86400 }, created: ago(3000), nextRun: brief },
    { id: 'anna0002', name: 'Call Anna', message: 'Remind me to call Anna', schedule: { kind: 'at', at: call }, created: ago(3000), nextRun: call },
    { id: 'later003', name: 'Tomorrow', message: 'Later', schedule: { kind: 'every', everySeconds: 86400 }, created: ago(3000), nextRun: new Date(Date.now() + 86400_000).toISOString() },
  ];
  return { text: JSON.stringify({ version: 1, jobs }, null, 2), brief, call };
}

const cron = 'data/hearth/cron/jobs.json';
let open = [];
async function stopAll() {
  for (const stop of open.reverse()) await stop().catch(() => {});
  open = [];
}
afterEach(stopAll);

async function start(config, replies = []) {
  const chrome = await openBrowser();
  const ollama = await startFakeOllama(undefined, { models: [model], replies });
  const jobs = jobsFile();
  const app = await startHearth({ ollamaHost: ollama.host, config, files: { [cron]: jobs.text } });
  open.push(() => chrome.close(), () => app.stop(), () => ollama.stop());
  return { chrome, app, jobs, ollama };
}

/** Opens the window once the scheduler has applied the policy (jobs.json changed). */
async function openWindow(chrome, app, done) {
  const deadline = Date.now() + 20000;
  while (!done(JSON.parse(readFileSync(join(app.home, cron), 'utf8')).jobs)) {
    if (Date.now() > deadline) throw new Error(`missed runs not handled at start\n${app.log.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const { page, errors, context } = await openPage(chrome.browser, app.url);
  open.push(() => context.close());
  await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
  return { page, errors };
}

const views = (page) => page.getByRole('navigation', { name: 'Views' });

describe('reminders missed while Hearth was closed', () => {
  test('caught up at start: the window, opened afterwards, says which, and keeps saying until dismissed', async () => {
    const { chrome, app, jobs } = await start(undefined, [
      { content: 'Good morning: two meetings today, and the courtyard drawings are due.', promptEvalCount: 300, evalCount: 14 },
      { content: 'Time to call Anna about Saturday.', promptEvalCount: 300, evalCount: 8 },
    ]);
    // Both ran before the window loaded: the one-shot is done, the daily one moved on a day.
    const ran = (stored, id) => stored.find((j) => j.id === id)?.lastStatus === 'ok';
    const { page, errors } = await openWindow(chrome, app, (stored) => ran(stored, 'brief001') && ran(stored, 'anna0002'));
    const after = JSON.parse(readFileSync(join(app.home, cron), 'utf8')).jobs;
    assert.equal(after.find((j) => j.id === 'anna0002').done, true);

    // At start, outside the Reminders view: a quiet count on its button.
    const badge = views(page).getByTestId('badge-reminders');
    await badge.waitFor();
    assert.match(await badge.innerText(), /^2\b/);

    await views(page).getByRole('button', { name: 'Reminders' }).click();
    const box = page.getByTestId('missed-notices');
    await box.getByRole('heading', { name: 'Missed while Hearth was closed' }).waitFor();
    const brief = box.locator('[data-kind="missed"]').filter({ hasText: 'Morning brief' });
    const call = box.locator('[data-kind="missed"]').filter({ hasText: 'Call Anna' });
    await box.locator('[data-kind="missed"][data-outcome="done"]').filter({ hasText: 'Morning brief' }).waitFor();
    assert.match(await brief.innerText(), new RegExp(`was due ${dueAt(jobs.brief)}`));
    assert.match(await brief.innerText(), /Caught up at \d/);
    assert.match(await call.innerText(), new RegExp(`was due ${dueAt(jobs.call)}`));
    assert.match(await call.innerText(), /Caught up at \d/);

    // Its chat holds the run that caught up. The two catch-up runs go at once and take the
    // fake's scripted replies in whichever order they ask, so either answer may be this one's.
    await brief.getByRole('button', { name: 'Open chat' }).click();
    await page.getByTestId('msg-assistant').filter({ hasText: /Good morning: two meetings today|Time to call Anna about Saturday/ }).waitFor();
    // A reminder's words show as the reminder, not as a user's message.
    assert.equal(await page.getByTestId('msg-reminder').last().locator('.reminder-text').innerText(), 'Give me my morning brief');

    // A reload (or a restart) shows them again: they stay until dismissed.
    await page.reload();
    await views(page).getByRole('button', { name: 'Reminders' }).click();
    await call.getByRole('button', { name: 'Dismiss' }).click();
    await call.waitFor({ state: 'detached' });
    assert.match(await badge.innerText(), /^1\b/);
    await brief.getByRole('button', { name: 'Dismiss' }).click();
    await box.waitFor({ state: 'detached' });
    await badge.waitFor({ state: 'detached' });
    // The window drops a dismissed notice at once and tells the backend after: the file
    // follows when the last dismissal is through.
    const stored = () => JSON.parse(readFileSync(join(app.home, 'state', 'hearth', 'notices.json'), 'utf8'));
    for (let i = 0; i < 100 && stored().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(stored(), []);
    assert.deepEqual(errors, []);
  });

  test('skipped at start (schedule.missedRuns is skip): the window says which were skipped, and nothing ran', async () => {
    const { chrome, app, jobs } = await start({ schedule: { missedRuns: 'skip' } });
    const { page, errors } = await openWindow(chrome, app, (stored) => stored.every((j) => j.id === 'later003' || j.lastStatus === 'skipped'));
    await views(page).getByTestId('badge-reminders').waitFor();
    await views(page).getByRole('button', { name: 'Reminders' }).click();
    const box = page.getByTestId('missed-notices');
    const brief = box.locator('[data-kind="missed"]').filter({ hasText: 'Morning brief' });
    await brief.waitFor();
    assert.match(await brief.innerText(), new RegExp(`was due ${dueAt(jobs.brief)}`));
    assert.match(await brief.innerText(), /Skipped/);
    assert.equal(await brief.getByRole('button', { name: 'Open chat' }).count(), 0);
    assert.match(await box.locator('[data-kind="missed"]').filter({ hasText: 'Call Anna' }).innerText(), /Skipped/);
    assert.equal(await box.locator('[data-kind="missed"]').filter({ hasText: 'Tomorrow' }).count(), 0);
    await box.getByRole('button', { name: 'Dismiss all' }).click();
    await box.waitFor({ state: 'detached' });
    const sessions = join(app.home, 'data', 'hearth', 'sessions');
    const ran = existsSync(sessions) ? readdirSync(sessions).filter((f) => /brief001|anna0002/.test(f)) : [];
    assert.deepEqual(ran, [], 'a skipped reminder ran');

    // Live, with the window open: jobs.json damaged by hand is told at once, once, and the
    // notice goes by itself when the file is fixed.
    const good = readFileSync(join(app.home, cron), 'utf8');
    writeFileSync(join(app.home, cron), '{"jobs": [ {"id": "a"');
    const file = page.locator('[data-kind="jobsFile"]');
    await file.getByText('The reminders file could not be read').waitFor();
    assert.match(await file.innerText(), /is damaged.*hint/s);
    assert.equal(await page.getByText(/is damaged/).count(), 1);
    writeFileSync(join(app.home, cron), good);
    await file.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  test('a reminder set to "ask me" runs nothing at start and asks: Run in its notification runs it once', async () => {
    const notifier = await startFakeNotifier();
    open.push(() => notifier.stop());
    const chrome = await openBrowser();
    const ollama = await startFakeOllama(undefined, { models: [model], replies: [{ content: 'The plants are watered, well done.', promptEvalCount: 300, evalCount: 8 }] });
    const due = ago(45);
    const jobs = [{ id: 'plants01', name: 'Water plants', message: 'Remind me to water the plants', schedule: { kind: 'every', everySeconds: 86400 }, missedRuns: 'ask', created: ago(3000), nextRun: due }];
    const app = await startHearth({ ollamaHost: ollama.host, files: { [cron]: JSON.stringify({ version: 1, jobs }) } });
    open.push(() => chrome.close(), () => app.stop(), () => ollama.stop());
    // At start it moved on to its next time without running.
    const { page, errors } = await openWindow(chrome, app, (stored) => new Date(stored[0].nextRun) > new Date());
    assert.equal(((await (await fetch(`${ollama.host}/_fake/chats`)).json()) ?? []).length, 0, 'it ran without asking');

    let shown = [];
    for (let i = 0; i < 200 && shown.length === 0; i++) {
      shown = await notifier.list();
      if (!shown.length) await new Promise((r) => setTimeout(r, 100));
    }
    const ask = shown.find((n) => n.title === 'Water plants');
    assert.ok(ask, JSON.stringify(shown));
    assert.match(ask.body, new RegExp(`Missed while Hearth was closed \\(due .*\\)\\. Run it once now\\?`));
    assert.deepEqual(ask.actions.slice(2), ['run', 'Run', 'skip', 'Skip']);

    await views(page).getByRole('button', { name: 'Reminders' }).click();
    const notice = page.getByTestId('missed-notices').locator('[data-kind="missed"]').filter({ hasText: 'Water plants' });
    await notice.getByText('Asks whether to run it once now').waitFor();
    assert.ok(await notice.getByRole('button', { name: 'Run once' }).isVisible());
    assert.ok(await notice.getByRole('button', { name: 'Skip' }).isVisible());

    // Run, pressed in the notification: it runs once, and the window follows.
    await notifier.invoke(ask.id, 'run');
    await page.locator('[data-kind="missed"][data-outcome="done"]').filter({ hasText: 'Water plants' }).waitFor({ timeout: 20000 });
    await notice.getByRole('button', { name: 'Open chat' }).click();
    await page.getByTestId('msg-assistant').getByText('The plants are watered').waitFor();
    assert.deepEqual(errors, []);
  });

  test('"Ask me" chosen in Settings makes every missed reminder ask; Skip, in the window or the notification, stays in its history', async () => {
    // Settings › Background: the choice is saved in config.json at once.
    const first = await start(undefined);
    const { page: settingsPage } = await openWindow(first.chrome, first.app, () => true);
    await views(settingsPage).getByRole('button', { name: 'Settings' }).click();
    await settingsPage.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Background' }).click();
    const policy = settingsPage.getByLabel('Reminders missed while Hearth was closed');
    await policy.selectOption({ label: 'Ask me each time (Run once or Skip)' });
    let saved;
    for (let i = 0; i < 200 && saved?.schedule?.missedRuns !== 'ask'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      saved = JSON.parse(readFileSync(first.app.configPath, 'utf8'));
    }
    assert.equal(saved.schedule.missedRuns, 'ask', JSON.stringify(saved));
    await stopAll();

    // The next start, with that config: the two missed reminders (no choice of their own)
    // ask, and nothing runs.
    const notifier = await startFakeNotifier();
    open.push(() => notifier.stop());
    const { chrome, app, ollama } = await start(saved);
    const { page, errors } = await openWindow(chrome, app, (stored) => {
      const brief = stored.find((j) => j.id === 'brief001');
      return new Date(brief.nextRun) > new Date() && !stored.find((j) => j.id === 'anna0002').nextRun;
    });
    await views(page).getByRole('button', { name: 'Reminders' }).click();
    const box = page.getByTestId('missed-notices');
    const brief = box.locator('[data-kind="missed"][data-outcome="asking"]').filter({ hasText: 'Morning brief' });
    const call = box.locator('[data-kind="missed"][data-outcome="asking"]').filter({ hasText: 'Call Anna' });
    await brief.waitFor();
    await call.waitFor();

    // Skip in the window: the one-shot moves to Done, skipped, at the time of the answer.
    await call.getByRole('button', { name: 'Skip' }).click();
    await box.locator('[data-kind="missed"][data-outcome="skipped"]').filter({ hasText: 'Call Anna' }).waitFor();
    const done = page.getByTestId('done-anna0002');
    await done.waitFor().catch(async (err) => {
      const list = await page.evaluate(() => window.go.main.RemindersAPI.ListJobs()).catch((e) => String(e));
      throw new Error(`${err.message}\nListJobs: ${JSON.stringify(list)}\njobs.json: ${readFileSync(join(app.home, cron), 'utf8')}\n${app.log.join('').slice(-4000)}`);
    });
    assert.match(await done.innerText(), /^Call Anna\s+Skipped\s+at \w/);

    // Skip in the notification: the repeating one's last run says skipped.
    let ask;
    for (let i = 0; i < 200 && !ask; i++) {
      ask = (await notifier.list()).find((n) => n.title === 'Morning brief');
      if (!ask) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(ask, 'no asking notification for Morning brief');
    await notifier.invoke(ask.id, 'skip');
    await box.locator('[data-kind="missed"][data-outcome="skipped"]').filter({ hasText: 'Morning brief' }).waitFor();
    const last = page.getByTestId('job-brief001').getByTestId('reminder-last');
    await last.getByText('Skipped').waitFor();
    const stored = JSON.parse(readFileSync(join(app.home, cron), 'utf8')).jobs;
    assert.deepEqual(stored.find((j) => j.id === 'brief001').history.map((r) => r.status), ['skipped']);
    assert.equal(((await (await fetch(`${ollama.host}/_fake/chats`)).json()) ?? []).length, 0, 'a reminder that asks ran');
    assert.deepEqual(errors, []);
  });
});

// Screenshots of each main view, light, dark and in Chinese, for a look by eye (scripts/screens.sh).
// Not a test: it fills a chat through the real backend and a scripted fake Ollama, then
// captures first run, chat, models, settings, the memory editor, reminders, MCP servers and
// skills into build/screens/; then a call waiting for approval, the Activity view,
// Settings › Approvals, and Quick ask's box with a call waiting in it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillMoment, openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';
import { historyLines } from './bench-history.mjs';

// config.json names an unset ${SEARCH_TOKEN} (the remote MCP server below): the first-run
// shots show the window's note about it; the others close it, as a person would.
const hideWarnings = (page, name = 'Hide these until they change') =>
  page.getByTestId('config-warnings').getByRole('button', { name }).click();
const tab = (page, name) => page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name }).click();
const out = join(repoRoot, 'build/screens');
mkdirSync(out, { recursive: true });

const answer = `Here is a small plan for **tonight**:

1. Water the tomatoes
2. Reply to Anna about *Saturday*
3. Back up the photos

\`\`\`bash
rsync -a ~/Pictures/ /mnt/backup/pictures/
\`\`\`

| Task | Time |
|------|------|
| Garden | 15 min |
| Backup | 5 min |`;

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
    { name: 'llava:7b', family: 'llama', size: 4733363377, contextLength: 32768, capabilities: ['completion', 'vision'], parameterSize: '7B', quantization: 'Q4_0' },
    { name: 'nomic-embed-text:latest', family: 'nomic-bert', size: 274302450, contextLength: 2048, capabilities: ['embedding'], parameterSize: '137M', quantization: 'F16' },
  ],
  replies: [
    // The reminder missed while Hearth was closed, caught up at start (before any chat).
    { content: 'Good morning: the courtyard drawings are due today, and Anna called yesterday.', promptEvalCount: 500, evalCount: 18 },
    { thinking: 'List the files first, then plan.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }], promptEvalCount: 980, evalCount: 24 },
    { content: answer, promptEvalCount: 1400, evalCount: 160 },
    { status: 404, error: "model 'qwen3:4b' not found" },
    // The replies are taken in the order the script asks: the chats and the reminders are
    // filled first, the approvals come last.
    // Reminders: Run now of "Stand-up" answers, of "Plants" fails.
    { content: 'Stand-up in 15 minutes: yesterday you finished the backup script.', promptEvalCount: 600, evalCount: 20 },
    { status: 400, error: 'model requires more system memory (9.4 GiB) than is available (6.1 GiB)' },
    // Approvals: a denied command, a failed read, then a command that waits for the user.
    { toolCalls: [{ name: 'exec', arguments: { command: 'rm -rf old-builds' } }] },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'notes/monday.md' } }] },
    { content: 'I left the old builds alone, and there is no note from Monday.' },
    { toolCalls: [{ name: 'exec', arguments: { command: 'git pull --rebase' } }] },
    // Quick ask (the tray's small box): a question whose call waits for approval in the box.
    { toolCalls: [{ name: 'exec', arguments: { command: 'du -sh ~/Pictures' } }] },
  ],
  pulls: [
    {
      delayMs: 1500,
      steps: [
        { status: 'pulling manifest' },
        ...[19, 20, 21, 22, 23, 24].map((n) => ({ status: 'pulling 8eeb52dfb3bb', total: 4700000000, completed: n * 100000000 })),
      ],
    },
  ],
};

const memoryText = `# Memory

<!-- Long-term facts Hearth keeps about you and your work. -->

## About you
- Lives in Lyon; works as a **landscape architect**
- Sister Anna: birthday *3 May*
- Prefers short answers, in English or French

## Projects
- Garden plan for the Rue Vauban courtyard — due end of November
- Back up the photo library every Sunday (\`rsync\` to the NAS)
`;
const memoryFiles = {
  'memory/MEMORY.md': memoryText,
  'memory/HISTORY.md': '[2026-11-20 09:12] Planned the courtyard planting with the client; chose hornbeams.\n\n[2026-11-22 18:40] Bought a kayak at the harbour shop; first trip on Sunday.\n',
  'memory/2026-11-22.md': '- Kayak bought at the harbour shop\n- Call Anna about the birthday dinner\n',
  'memory/2026-11-23.md': '- Courtyard drawings sent\n',
  'skills/garden/SKILL.md': '---\nname: garden\ndescription: Plan planting by season\n---\n',
};
// A real stdio MCP server for the MCP servers view.
const fakemcpDir = mkdtempSync(join(tmpdir(), 'hearth-fakemcp-'));
const fakemcp = join(fakemcpDir, 'fakemcp');
execFileSync('go', ['build', '-o', fakemcp, './backend/internal/fakemcp'], { cwd: repoRoot, stdio: 'inherit' });

const ollama = await startFakeOllama(undefined, script);
// Reminders missed while Hearth was closed: one due 70 minutes ago (caught up at start), and
// one skipped at an earlier start, still not dismissed.
const ago = (min) => new Date(Date.now() - min * 60_000).toISOString();
const missedJobs = {
  version: 1,
  jobs: [{ id: 'brief001', name: 'Morning brief', message: 'Give me my morning brief', schedule: { kind: 'every', everySeconds: 86400 }, created: ago(5000), nextRun: ago(70) }],
};
const oldNotices = [
  { id: 'n0', kind: 'missed', at: ago(1200), jobId: 'balc0002', title: 'Water the balcony', sessionId: 'cron:balc0002', due: ago(1500), outcome: 'skipped' },
];
const app = await startHearth({
  ollamaHost: ollama.host,
  config: { agents: { defaults: { embeddingModel: '' } } },
  files: { 'data/hearth/cron/jobs.json': JSON.stringify(missedJobs), 'state/hearth/notices.json': JSON.stringify(oldNotices) },
});
// The catch-up takes the first reply: wait for it before any chat asks for one.
for (let i = 0; i < 200 && !readFileSync(join(app.home, 'data/hearth/cron/jobs.json'), 'utf8').includes('"lastStatus": "ok"'); i++) {
  await new Promise((r) => setTimeout(r, 100));
}
function writeMemory(files = memoryFiles) {
  for (const [name, text] of Object.entries(files)) {
    const p = join(app.workspace, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(`${p}.tmp`, text);
    renameSync(`${p}.tmp`, p); // as the agent writes: atomically
  }
}
const chrome = await openBrowser();
try {
  mkdirSync(join(app.workspace, '..', 'sessions'), { recursive: true });
  writeFileSync(join(app.workspace, '..', 'sessions', 'long.jsonl'), historyLines('long', 'A long chat', 600));
  // Fill two chats once; every later page reads them from disk.
  {
    const { page, context } = await openPage(chrome.browser, app.url);
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill('What should I do tonight? Look at my notes.');
    await box.press('Enter');
    await page.locator('[data-testid="msg-assistant"][data-status="ok"]').waitFor({ timeout: 20000 });
    await page.getByRole('button', { name: 'New chat' }).click();
    await box.fill('Summarise the meeting notes from Monday');
    await box.press('Enter');
    await page.getByTestId('error-card').waitFor({ timeout: 20000 });

    // Three reminders through the form: one answered, one failed and paused, one ahead.
    await page.getByRole('button', { name: 'Reminders' }).click();
    const form = page.getByRole('form', { name: 'New reminder' });
    await page.locator('[data-testid^="job-"]').filter({ hasText: 'Morning brief' }).waitFor(); // the one from before
    const create = async (name, message, fill) => {
      if (!(await form.isVisible())) await page.getByRole('button', { name: 'New reminder' }).click();
      await form.getByLabel('Name (optional)').fill(name);
      await form.getByLabel('Message').fill(message);
      await fill();
      await form.getByRole('button', { name: 'Create' }).click();
      await page.locator('[data-testid^="job-"]').filter({ hasText: name }).waitFor();
      await form.waitFor({ state: 'detached' });
    };
    await create('Stand-up', 'Remind me of the stand-up and what I did yesterday', async () => {
      await form.getByRole('radio', { name: 'Cron' }).check();
      await form.getByLabel('Cron expression').fill('45 9 * * 1-5');
      await form.getByLabel('Time zone').fill('Europe/Berlin');
    });
    await create('Plants', 'Ask me whether I watered the plants', async () => {
      await form.getByRole('radio', { name: 'Every' }).check();
      await form.getByLabel('Interval').fill('2');
      await form.getByLabel('Unit').selectOption('days');
    });
    await create('Call Anna', 'Remind me to call Anna about Saturday', async () => {
      const at = new Date(Date.now() + 26 * 3600_000);
      at.setMinutes(30, 0, 0);
      const p = (n) => String(n).padStart(2, '0');
      await fillMoment(form.getByRole('group', { name: 'Date and time' }), `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}:${p(at.getMinutes())}:00`);
    });
    const job = (name) => page.locator('[data-testid^="job-"]').filter({ hasText: name });
    await job('Stand-up').getByRole('button', { name: 'Run now' }).click();
    await job('Stand-up').getByTestId('reminder-last').getByText('Done').waitFor({ timeout: 20000 });
    await job('Plants').getByRole('button', { name: 'Run now' }).click();
    await job('Plants').getByTestId('reminder-last').getByText('Failed').waitFor({ timeout: 20000 });
    await job('Plants').getByRole('button', { name: 'Pause' }).click();
    await page.locator('[data-paused="true"]').waitFor();
    // MCP servers: one working, one broken, one remote that is down; a workspace skill
    // that misses a program.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'MCP servers' }).click();
    const block = {
      mcpServers: {
        notes: { command: fakemcp, env: { GREETING: 'hi' } },
        calendar: { command: fakemcp, args: ['-fail', 'calendar: cannot read ~/.local/share/calendar.db: permission denied'] },
        search: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${SEARCH_TOKEN}' }, toolTimeout: 60 },
      },
    };
    await page.getByRole('textbox', { name: 'Claude Desktop JSON' }).fill(JSON.stringify(block, null, 2));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.locator('[data-testid="mcp-notes"][data-state="connected"]').waitFor({ timeout: 20000 });
    const dir = join(app.workspace, 'skills', 'transcribe');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: transcribe\ndescription: Turn voice memos into text notes.\nbins: [whisper-cli]\n---\n# Transcribe\n');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Skills' }).click();
    await page.getByRole('switch', { name: 'Offer summarize to the model' }).uncheck();
    await page.locator('[data-testid="skill-summarize"][data-enabled="false"]').waitFor();
    await context.close();
  }
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme });
    const shot = (name) => page.screenshot({ path: join(out, `${name}-${scheme}.png`) });
    // Ollama answers and the model is there: the guide has moved on to its last step by itself.
    await page.getByTestId('first-run').getByText('Your workspace').waitFor();
    await shot('firstrun');
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
    await hideWarnings(page);

    await page.getByRole('list', { name: 'Chats' }).getByText('What should I do tonight?').click();
    await page.getByTestId('tool-card').waitFor();
    await page.locator('details').first().evaluate((d) => (d.open = true));
    await shot('chat');
    await page.getByRole('list', { name: 'Chats' }).getByText('Summarise the meeting').click();
    await page.getByTestId('error-card').waitFor();
    await page.getByRole('textbox', { name: 'Message Hearth…' }).fill('/');
    await shot('chat-error');
    await page.getByRole('textbox', { name: 'Message Hearth…' }).fill('');

    // A long chat, scrolled up a few screens: earlier messages came in above as it went.
    await page.getByRole('list', { name: 'Chats' }).getByText('A long chat').click();
    await page.getByText('Last answer long.').waitFor();
    for (let i = 0; i < 4; i++) {
      await page.getByTestId('messages').evaluate((el) => (el.scrollTop -= 700));
      await page.waitForTimeout(150);
    }
    await shot('chat-long');

    await page.getByRole('button', { name: 'Models' }).click();
    await page.getByTestId('model-qwen3:4b').waitFor();
    if (scheme === 'light') {
      await page.getByRole('textbox', { name: 'Model to download' }).fill('llama3.2:3b');
      await page.getByRole('button', { name: 'Download' }).click();
      await page.getByTestId('pull-llama3.2:3b').filter({ hasText: '1.9 GB' }).waitFor();
    }
    await shot('models');

    await page.getByRole('button', { name: 'Settings' }).click();
    await tab(page, 'General');
    await page.getByLabel('Theme').waitFor();
    await shot('settings-general');
    await tab(page, 'Models & providers');
    await page.getByLabel('Temperature').fill('7');
    await page.getByLabel('Temperature').press('Tab');
    await page.locator('[data-testid="settings-status"][data-state="invalid"]').waitFor();
    await shot('settings');
    await page.getByLabel('Temperature').fill('0.3');
    await page.getByLabel('Temperature').press('Tab');
    await tab(page, 'Memory');
    await shot('settings-memory');
    await tab(page, 'About');
    await page.getByTestId('about-version').waitFor();
    await shot('settings-about');

    // Memory: the tree, the editor, recall search and a conflict.
    writeMemory();
    await page.getByRole('tablist', { name: 'Sidebar sections' }).getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('navigation', { name: 'Memory files' }).getByRole('button', { name: 'MEMORY.md', exact: true }).click();
    const content = page.getByTestId('memory-editor').locator('.cm-content');
    await content.getByText('Garden plan').waitFor();
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Try the new bakery on Rue Vauban');
    await shot('memory');
    await page.getByRole('searchbox', { name: 'Search memory…' }).fill('kayak harbour');
    await page.getByRole('searchbox', { name: 'Search memory…' }).press('Enter');
    await page.getByRole('list', { name: 'Memory search results' }).waitFor();
    await shot('memory-search');
    await page.getByRole('searchbox', { name: 'Search memory…' }).fill('');
    await page.getByRole('searchbox', { name: 'Search memory…' }).press('Escape');
    writeMemory({ 'memory/MEMORY.md': memoryText.replace('## Projects', '- Allergic to cats\n\n## Projects') });
    await page.getByTestId('memory-disk-changed').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByTestId('memory-conflict').locator('.cm-mergeViewEditor').nth(1).getByText('bakery').waitFor();
    await shot('memory-conflict');
    await page.getByRole('button', { name: 'Take theirs' }).click();
    await context.close();
  }

  // A denied call and a failed one for the Activity view, then a call left waiting: every
  // page opened afterwards shows its approval card again.
  {
    const { page, context } = await openPage(chrome.browser, app.url);
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
    await hideWarnings(page);
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await page.getByRole('button', { name: 'New chat' }).click();
    await box.fill('Clean up the old builds in my workspace, then read my Monday notes');
    await box.press('Enter');
    await page.getByTestId('approval-card').getByRole('button', { name: 'Deny' }).click();
    await page.locator('[data-testid="msg-assistant"][data-status="ok"]').waitFor({ timeout: 20000 });
    await page.getByRole('button', { name: 'New chat' }).click();
    await box.fill('Update my Hearth checkout');
    await box.press('Enter');
    await page.getByTestId('approval-card').waitFor({ timeout: 20000 });
    await context.close();
  }
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme });
    const shot = (name) => page.screenshot({ path: join(out, `${name}-${scheme}.png`) });
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
    await hideWarnings(page);
    await page.getByTestId('approval-card').getByText(/shell command/).waitFor({ timeout: 20000 });
    await shot('approval');

    await page.getByRole('button', { name: 'Activity' }).click();
    await page.locator('[data-testid="activity-row"][data-approval="denied"]').getByRole('button').first().click();
    await page.getByText(/denied by the user/).waitFor();
    await shot('activity');

    await page.getByRole('button', { name: 'Settings' }).click();
    await tab(page, 'Tools & approvals');
    await page.getByTestId('approval-settings').scrollIntoViewIfNeeded();
    await page.getByTestId('approval-settings').getByRole('radio').first().waitFor();
    await shot('settings-approvals');
    await tab(page, 'Background');
    await page.getByTestId('background-settings').getByLabel('Every (minutes)').waitFor();
    await shot('settings-background');
    await tab(page, 'Models & providers');
    // API keys in config.json in plain text: one saved from Settings (it lands in the file when
    // no system keyring answers), one typed into the file by hand. Each gets a warning, and
    // Move to keyring when a Secret Service answers. Then config.json goes back as it was.
    {
      const before = readFileSync(app.configPath, 'utf8');
      await page.getByLabel('API key').first().fill(`sk-typed-into-settings-${scheme}`);
      await page.getByLabel('API key').first().press('Tab');
      await page.locator('[data-testid="settings-status"][data-state="saved"]').waitFor();
      const cfg = JSON.parse(readFileSync(app.configPath, 'utf8'));
      cfg.tools = { ...cfg.tools, web: { ...cfg.tools?.web, search: { provider: 'brave', apiKey: 'BSA-typed-by-hand' } } };
      writeFileSync(app.configPath, JSON.stringify(cfg, null, 2), { mode: 0o600 });
      await page.getByRole('button', { name: 'Activity' }).click();
      await page.getByRole('button', { name: 'Settings' }).click();
      await tab(page, 'Models & providers');
      const warning = page.getByTestId('plain-key').first();
      await warning.waitFor();
      await page.getByRole('group', { name: 'Providers' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await shot('settings-keys');
      const move = warning.getByRole('button', { name: 'Move to keyring' });
      if (scheme === 'light' && (await move.count())) {
        await move.click();
        await page.getByTestId('key-moved').waitFor();
        await shot('settings-keys-moved');
      }
      writeFileSync(app.configPath, before, { mode: 0o600 });
    }

    await page.getByRole('button', { name: 'Reminders' }).click();
    await page.locator('[data-testid^="job-"]').first().waitFor();
    await page.locator('[data-testid^="job-"]').filter({ hasText: 'Stand-up' }).getByText(/^History/).click();
    await shot('reminders');
    await page.getByRole('button', { name: 'New reminder' }).click();
    await page.getByRole('form', { name: 'New reminder' }).getByRole('radio', { name: 'Cron' }).check();
    await page.getByRole('form', { name: 'New reminder' }).getByLabel('Cron expression').fill('0 9 * *');
    await shot('reminders-form');
    await page.getByRole('button', { name: 'MCP servers' }).click();
    await page.locator('[data-testid="mcp-calendar"][data-state="failed"]').waitFor({ timeout: 20000 });
    await page.locator('[data-testid="mcp-search"][data-state="failed"]').waitFor({ timeout: 20000 });
    await page.getByTestId('mcp-notes').getByRole('button', { name: 'Test connection' }).click();
    await page.getByTestId('mcp-notes').getByTestId('mcp-test').waitFor({ timeout: 20000 });
    await shot('mcp');
    if (scheme === 'light') {
      await page.getByTestId('mcp-search').getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('form', { name: 'Edit search' }).getByRole('button', { name: 'Test connection' }).click();
      await page.getByRole('form', { name: 'Edit search' }).getByTestId('mcp-test').waitFor({ timeout: 20000 });
      await page.getByRole('form', { name: 'Edit search' }).getByLabel('URL').fill('ftp://example.com');
      await page.getByRole('form', { name: 'Edit search' }).getByRole('button', { name: 'Save' }).click();
      await shot('mcp-edit');
      await page.getByRole('form', { name: 'Edit search' }).getByRole('button', { name: 'Cancel' }).click();
    }
    // A local server's environment: its value stays hidden in the form.
    await page.getByTestId('mcp-notes').getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('form', { name: 'Edit notes' }).getByTestId('masked-pairs').waitFor();
    await shot('mcp-edit-env');
    await page.getByRole('form', { name: 'Edit notes' }).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Skills' }).click();
    await page.getByTestId('skill-transcribe').waitFor();
    await page.waitForTimeout(300); // let the switches finish sliding
    await shot('skills');
    await context.close();
  }
  // The chat's model picker, light and dark.
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme });
    const skip = page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
    await hideWarnings(page);
    await page.getByRole('list', { name: 'Chats' }).getByText('What should I do tonight?').click();
    await page.getByTestId('tool-card').waitFor();
    await page.getByTestId('model-picker').click();
    await page.getByTestId('model-option-qwen3:4b').waitFor();
    await page.screenshot({ path: join(out, `chat-models-${scheme}.png`) });
    await context.close();
  }
  // The main views in Chinese (the window follows the system language): a CJK font must
  // be installed for these to be legible (scripts/deps.sh installs fonts-noto-cjk).
  {
    const { page, context } = await openPage(chrome.browser, app.url, { locale: 'zh-CN' });
    const shot = (name) => page.screenshot({ path: join(out, `${name}-zh-CN.png`) });
    await page.getByTestId('first-run').waitFor();
    await shot('firstrun');
    await page.getByTestId('first-run').getByRole('button', { name: '跳过设置' }).click();
    await hideWarnings(page, '隐藏，直到它们有变化');
    await page.getByRole('list').getByText('What should I do tonight?').click();
    await page.getByTestId('tool-card').waitFor();
    await shot('chat');
    const view = (label) => page.getByRole('navigation', { name: '视图' }).getByRole('button', { name: label });
    for (const [label, name] of [['模型', 'models'], ['提醒', 'reminders'], ['活动', 'activity'], ['MCP 服务器', 'mcp'], ['技能', 'skills']]) {
      await view(label).click();
      await page.waitForTimeout(400);
      await shot(name);
    }
    await view('设置').click();
    const zhTab = (name) => page.getByRole('tablist', { name: '设置分区' }).getByRole('tab', { name }).click();
    for (const [label, name] of [['通用', 'settings-general'], ['模型与服务', 'settings'], ['工具与审批', 'settings-approvals'], ['后台', 'settings-background'], ['记忆', 'settings-memory'], ['关于', 'settings-about']]) {
      await zhTab(label);
      await page.waitForTimeout(300);
      await shot(name);
    }
    await page.getByRole('tablist', { name: '侧栏分区' }).getByRole('tab', { name: '记忆' }).click();
    await page.getByRole('navigation', { name: '记忆文件' }).getByRole('button', { name: 'MEMORY.md', exact: true }).click();
    await page.getByTestId('memory-editor').locator('.cm-content').getByText('Garden plan').waitFor();
    await shot('memory');
    await context.close();
  }
  // The 640 px minimum width: the chat with the sidebar open and folded (Ctrl+B), and Settings.
  {
    const { page, context } = await openPage(chrome.browser, app.url);
    await page.setViewportSize({ width: 640, height: 560 });
    const shot = (name) => page.screenshot({ path: join(out, `${name}-640.png`) });
    const skip = page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
    await hideWarnings(page);
    await page.getByRole('list', { name: 'Chats' }).getByText('What should I do tonight?').click();
    await page.getByTestId('tool-card').waitFor();
    await shot('chat');
    await page.keyboard.press('Control+b');
    await page.locator('aside[data-collapsed="true"]').waitFor();
    await shot('chat-folded');
    await page.getByRole('button', { name: 'Settings' }).click();
    await tab(page, 'Models & providers');
    await shot('settings');
    await page.keyboard.press('Control+b');
    await context.close();
  }
  // Quick ask at its 520×400 box, a tool call waiting for approval inside it (en and zh-CN
  // share the one reply: the Chinese box shows the question only).
  for (const [locale, question, name] of [
    ['en-US', 'How big is my photo library?', 'quick-ask-approval'],
    ['zh-CN', '我的照片库有多大？', 'quick-ask-zh'],
  ]) {
    const { page, context } = await openPage(chrome.browser, app.url, { locale });
    await page.setViewportSize({ width: 520, height: 400 });
    await page.evaluate(() => window.runtime.EventsEmit('quickask:open'));
    const box = page.getByTestId('quick-ask').getByTestId('quick-input');
    await box.fill(question);
    if (locale === 'en-US') {
      await box.press('Enter');
      await page.getByTestId('quick-ask').getByTestId('approval-card').waitFor({ timeout: 20000 });
    }
    await page.screenshot({ path: join(out, `${name}.png`) });
    await context.close();
  }
  console.log(`screens written to ${out}`);
} finally {
  await chrome.close();
  await app.stop();
  await ollama.stop();
  rmSync(fakemcpDir, { recursive: true, force: true });
}

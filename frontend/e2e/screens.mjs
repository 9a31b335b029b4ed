// Screenshots of each main view, light and dark, for a look by eye (scripts/screens.sh).
// Not a test: it fills a chat through the real backend and a scripted fake Ollama, then
// captures first run, chat, models and settings into build/screens/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

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
    { thinking: 'List the files first, then plan.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }], promptEvalCount: 980, evalCount: 24 },
    { content: answer, promptEvalCount: 1400, evalCount: 160 },
    { status: 404, error: "model 'qwen3:4b' not found" },
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

// A real stdio MCP server for the MCP servers view.
const fakemcp = join(mkdtempSync(join(tmpdir(), 'hearth-fakemcp-')), 'fakemcp');
execFileSync('go', ['build', '-o', fakemcp, './backend/internal/fakemcp'], { cwd: repoRoot, stdio: 'inherit' });

const ollama = await startFakeOllama(undefined, script);
const app = await startHearth({ ollamaHost: ollama.host });
const chrome = await openBrowser();
try {
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
    await page.getByTestId('first-run').getByText(/Ollama is running/).waitFor();
    await shot('firstrun');
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();

    await page.getByRole('list', { name: 'Chats' }).getByText('What should I do tonight?').click();
    await page.getByTestId('tool-card').waitFor();
    await page.locator('details').first().evaluate((d) => (d.open = true));
    await shot('chat');
    await page.getByRole('list', { name: 'Chats' }).getByText('Summarise the meeting').click();
    await page.getByTestId('error-card').waitFor();
    await page.getByRole('textbox', { name: 'Message Hearth…' }).fill('/');
    await shot('chat-error');
    await page.getByRole('textbox', { name: 'Message Hearth…' }).fill('');

    await page.getByRole('button', { name: 'Models' }).click();
    await page.getByTestId('model-qwen3:4b').waitFor();
    if (scheme === 'light') {
      await page.getByRole('textbox', { name: 'Model to download' }).fill('llama3.2:3b');
      await page.getByRole('button', { name: 'Download' }).click();
      await page.getByTestId('pull-llama3.2:3b').filter({ hasText: '1.9 GB' }).waitFor();
    }
    await shot('models');

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Temperature').waitFor();
    await page.getByLabel('Temperature').fill('7');
    await shot('settings');

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
    }

    await page.getByRole('button', { name: 'Skills' }).click();
    await page.getByTestId('skill-transcribe').waitFor();
    await page.waitForTimeout(300); // let the switches finish sliding
    await shot('skills');
    await context.close();
  }
  console.log(`screens written to ${out}`);
} finally {
  await chrome.close();
  await app.stop();
  await ollama.stop();
}

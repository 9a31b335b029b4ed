// The window as a person uses it, against the dev build, the real Go backend and a
// scripted fake Ollama: chat streams, tool cards, Stop, model download, Chinese, session
// search and export. The tests share one Hearth and run in order (the fake answers its
// scripted replies in turn).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyLines } from './bench-history.mjs';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const words = (n) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
    { name: 'nomic-embed-text:latest', family: 'nomic-bert', size: 274302450, contextLength: 2048, capabilities: ['embedding'], parameterSize: '137M', quantization: 'F16' },
  ],
  replies: [
    // 1: a streamed answer with a code block
    {
      thinking: 'The user wants an example.',
      chunks: ['Here is ', 'a **streamed** ', 'answer.\n\n', '```go\n', 'fmt.Println("hi")\n', '```\n'],
      delayMs: 300,
      promptEvalCount: 321,
      evalCount: 42,
    },
    // 2-3: a tool call, then the answer
    { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }], promptEvalCount: 400, evalCount: 10 },
    { content: 'Your workspace holds AGENTS.md and more.', promptEvalCount: 500, evalCount: 12 },
    // 4: a long answer to stop
    { content: words(400), delayMs: 100 },
  ],
  pulls: [
    {
      delayMs: 150,
      steps: [
        { status: 'pulling manifest' },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 10000000 },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 50000000 },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 100000000 },
        { status: 'verifying sha256 digest' },
        { status: 'writing manifest' },
        { status: 'success' },
      ],
    },
  ],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}
const lastAnswer = () => page.getByTestId('msg-assistant').last();

describe('chatting', () => {
  test('a message streams in as Markdown, with thinking folded, code to copy and token counts', async () => {
    await send('Show me a Go example');
    const answer = lastAnswer();
    await answer.getByText('Here is').waitFor();
    // Still streaming: the first words are on screen before the answer is complete.
    assert.equal(await answer.getAttribute('aria-busy'), 'true');
    assert.equal(await answer.locator('pre').count(), 0);
    await page.locator('[data-testid="msg-assistant"][data-status="ok"]').waitFor({ timeout: 15000 });
    assert.equal(await answer.locator('strong').textContent(), 'streamed');
    assert.match(await answer.locator('pre code').textContent(), /fmt\.Println\("hi"\)/);
    assert.ok((await answer.locator('pre code span[class^="hljs-"]').count()) > 0, 'code not highlighted');
    assert.ok(await answer.getByRole('button', { name: 'Copy' }).first().isVisible());
    const reasoning = answer.locator('details');
    assert.equal(await reasoning.getAttribute('open'), null);
    assert.match(await reasoning.textContent(), /wants an example/);
    assert.match(await answer.getByTestId('reply-tokens').textContent(), /321 in · 42 out/);
    await page.getByTestId('context-gauge').waitFor();
    // The chat is listed, titled after its first message.
    await page.getByRole('list', { name: 'Chats' }).getByText('Show me a Go example').waitFor();
    await page.screenshot({ path: join(shots, 'chat-stream.png') });
  });

  test('a tool call shows as a card with its result', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('What is in my workspace?');
    const card = page.getByTestId('tool-card').filter({ hasText: 'list_dir' });
    await card.waitFor();
    await page.getByText('Your workspace holds AGENTS.md and more.').waitFor();
    assert.match(await card.textContent(), /✓/);
    await card.getByRole('button').first().click();
    assert.match(await card.locator('pre').first().textContent(), /"path": "\."/);
    assert.match(await card.locator('pre.result').textContent(), /AGENTS\.md/);
  });

  test('Esc stops a long answer and keeps what came', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Tell me a very long story');
    const answer = lastAnswer();
    await answer.getByText('word3', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="msg-assistant"][data-status="cancelled"]').waitFor({ timeout: 5000 });
    assert.ok(await answer.getByText('Stopped').isVisible());
    const text = await answer.locator('.md').textContent();
    assert.ok(!text.includes('word399'), 'the answer ran to the end');
    assert.ok(await page.getByRole('button', { name: 'Send' }).isVisible());
  });
});

describe('sessions', () => {
  test('Ctrl+K searches the chats; the sidebar box filters them by title', async () => {
    await page.keyboard.press('Control+k');
    const input = page.getByTestId('search-input');
    await input.fill('workspace');
    await page.getByTestId('search-hit').filter({ hasText: 'What is in my workspace?' }).first().waitFor();
    // A modal: Tab does not reach the chat behind it.
    await page.keyboard.press('Tab');
    assert.equal(await input.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Shift+Tab');
    assert.equal(await input.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Escape');
    await input.waitFor({ state: 'detached' });
    const search = page.getByRole('searchbox', { name: 'Search chats (Ctrl+K)' });
    await search.fill('workspace');
    const list = page.getByRole('list', { name: 'Chats' });
    await list.getByText('What is in my workspace?').waitFor();
    assert.equal(await list.getByRole('listitem').count(), 1);
    await search.fill('');
    assert.equal(await list.getByRole('listitem').count(), 3);
  });

  test('a chat exports to Markdown through the save dialog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-export-'));
    const target = join(dir, 'story.md');
    const row = page.getByRole('listitem').filter({ hasText: 'Show me a Go example' });
    await row.hover();
    await row.getByRole('button', { name: /Actions for/ }).click();
    await row.getByRole('menuitem', { name: 'Export as Markdown…' }).click();
    // The GTK save dialog of the dev build's window, on the same X display.
    // Xvfb has no window manager: give the dialog the keyboard focus ourselves.
    const win = execFileSync('xdotool', ['search', '--sync', '--name', 'Export chat'], { timeout: 15000 })
      .toString()
      .trim()
      .split('\n')[0];
    await new Promise((r) => setTimeout(r, 500));
    execFileSync('xdotool', ['windowfocus', win]);
    execFileSync('xdotool', ['key', 'ctrl+a']);
    execFileSync('xdotool', ['type', '--delay', '5', target]);
    execFileSync('xdotool', ['key', 'Return']);
    await page.getByText(`Saved to ${target}`).waitFor({ timeout: 10000 });
    assert.ok(existsSync(target));
    const md = readFileSync(target, 'utf8');
    assert.match(md, /Show me a Go example/);
    assert.match(md, /fmt\.Println/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('an interrupted reply', () => {
  test('offers Continue, which finishes the turn', async () => {
    // What a quit in the middle of a reply leaves: the question of a run with no end line.
    const at = new Date().toISOString();
    const lines = [
      { type: 'meta', v: 1, id: 'cut', title: 'Plan the trip to Lisbon', created: at, updated: at, model: 'ollama/qwen3:4b', lastConsolidated: -1, archived: false },
      { type: 'message', at, runId: 'rcut', role: 'user', content: 'Plan the trip to Lisbon' },
    ];
    writeFileSync(join(app.workspace, '..', 'sessions', 'cut.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await page.reload();
    await page.getByRole('list', { name: 'Chats' }).getByText('Plan the trip to Lisbon').click();
    const banner = page.getByRole('status').filter({ hasText: 'interrupted before it finished' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Continue' }).click();
    await page.locator('[data-testid="msg-assistant"][data-status="ok"]').last().waitFor({ timeout: 10000 });
    assert.match(await lastAnswer().textContent(), /Plan the trip to Lisbon/);
    assert.equal(await banner.count(), 0);
  });
});

describe('a long chat', () => {
  test('opens at its end; scrolling up reaches its first message and keeps the view still', async () => {
    mkdirSync(join(app.workspace, '..', 'sessions'), { recursive: true });
    writeFileSync(join(app.workspace, '..', 'sessions', 'long.jsonl'), historyLines('long', 'A long chat', 300, 3000));
    await page.reload();
    // As in WebKitGTK, which has no scroll anchoring of its own: the view keeps still by itself.
    await page.addStyleTag({ content: '[data-testid="messages"] { overflow-anchor: none; }' });
    await page.getByRole('list', { name: 'Chats' }).getByText('A long chat').click();
    // Its last answer is long: its end shows at once, the rest comes in above without moving it.
    const end = page.getByText('word2998');
    await end.waitFor();
    const endTop = await end.evaluate((el) => el.getBoundingClientRect().top);
    await page.getByText('Last answer long.').waitFor();
    assert.equal(await end.evaluate((el) => el.getBoundingClientRect().top), endTop);
    const rendered = await page.locator('[data-testid^="msg-"]').count();
    assert.ok(rendered < 60, `opening renders only the latest messages, not ${rendered}`);
    const messages = page.getByTestId('messages');
    const first = page.getByText('Question 0: how do I do thing 0?');
    for (let i = 0; i < 300 && !(await first.count()); i++) {
      // Scroll up 1200 px: a message on screen must move down by just that much (or by what
      // was left above), however many earlier messages came in above it meanwhile.
      const step = await messages.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const m = [...el.querySelectorAll('[data-testid^="msg-"]')].find((x) => x.getBoundingClientRect().bottom > box.top + 40);
        m.dataset.seen = String(m.getBoundingClientRect().top);
        const by = Math.min(1200, el.scrollTop);
        el.scrollTop -= 1200;
        return by;
      });
      await page.waitForTimeout(80);
      const moved = await messages.evaluate((el) => {
        const m = el.querySelector('[data-seen]');
        const d = m.getBoundingClientRect().top - Number(m.dataset.seen);
        delete m.dataset.seen;
        return d;
      });
      assert.ok(Math.abs(moved - step) <= 2, `the view jumped: scrolled ${step} px, a message moved ${moved} px`);
    }
    await first.waitFor({ timeout: 1000 });
    assert.equal(await page.getByRole('button', { name: /earlier messages/ }).count(), 0);
  });
});

describe('pictures', () => {
  test('a dropped picture is sent with the message and kept in the chat', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    // A 1×1 PNG dropped on the message box, as a file manager would.
    await page.locator('.box').evaluate((box) => {
      const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByRole('img', { name: 'dot.png' }).waitFor();
    await send('What is in this picture?');
    const question = page.getByTestId('msg-user').last();
    await question.getByRole('img', { name: 'Image 1' }).waitFor();
    // qwen3:4b cannot see: the agent says the picture was left out.
    await lastAnswer().getByRole('note').filter({ hasText: 'cannot see images' }).waitFor({ timeout: 10000 });
    await page.locator('[data-testid="msg-assistant"][data-status="ok"]').last().waitFor();
    // Stored with the message: it is there after a reload.
    await page.reload();
    await page.getByRole('list', { name: 'Chats' }).getByText('What is in this picture?').click();
    const src = await page.getByTestId('msg-user').last().getByRole('img', { name: 'Image 1' }).getAttribute('src');
    assert.match(src, /^data:image\/png;base64,iVBORw0KGgo/);
  });
});

describe('models', () => {
  test('lists models with badges; a download shows progress to the end', async () => {
    await page.getByRole('button', { name: 'Models' }).click();
    const qwen = page.getByTestId('model-qwen3:4b');
    await qwen.waitFor();
    const facts = await qwen.textContent();
    for (const want of ['2.5 GB', 'qwen3', '4.0B', '40960 context', 'tools', 'thinking', 'chat model']) {
      assert.ok(facts.includes(want), `${want} missing in ${facts}`);
    }
    assert.match(await page.getByTestId('model-nomic-embed-text:latest').textContent(), /embedding/);

    // Every value the bar shows on the way, recorded in the page.
    await page.evaluate(() => {
      window.__bar = [];
      new MutationObserver((ms) => {
        for (const m of ms) {
          const el = m.type === 'attributes' ? m.target : null;
          if (el?.getAttribute?.('role') === 'progressbar') window.__bar.push(Number(el.getAttribute('aria-valuenow')));
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await page.getByRole('textbox', { name: 'Model to download' }).fill('tiny:1b');
    await page.getByRole('button', { name: 'Download' }).click();
    const bar = page.getByRole('progressbar', { name: 'Download of tiny:1b' });
    await bar.waitFor();
    await page.locator('[data-testid="pull-tiny:1b"][data-done="true"]').waitFor({ timeout: 10000 });
    const seen = await page.evaluate(() => window.__bar);
    assert.ok(seen.some((v) => v > 0 && v < 100), `no progress before the end: ${seen}`);
    assert.deepEqual([...seen].sort((a, b) => a - b), seen, `the bar went backwards: ${seen}`);
    assert.equal(await bar.getAttribute('aria-valuenow'), '100');
    assert.match(await page.getByTestId('pull-tiny:1b').textContent(), /Downloaded/);
    await page.getByTestId('model-tiny:1b').waitFor();
    await page.screenshot({ path: join(shots, 'models.png') });
  });
});

describe('settings', () => {
  test('a bad value is explained beside its field and nothing is saved', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Models & providers' }).click();
    const temp = page.getByLabel('Temperature');
    await temp.fill('5');
    await temp.press('Tab');
    await page.getByText('Use a number from 0 to 2').waitFor();
    await page.locator('[data-testid="settings-status"][data-state="invalid"]').waitFor();
    await temp.fill('0.5');
    await temp.press('Tab');
    await page.locator('[data-testid="settings-status"][data-state="saved"]').waitFor();
  });

  test('switching to Chinese translates the window and is written to config.json', async () => {
    await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'General' }).click();
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '设置' }).waitFor();
    assert.ok(await page.getByRole('button', { name: '新对话' }).isVisible());
    assert.ok(await page.getByRole('button', { name: '模型' }).isVisible());
    const cfg = JSON.parse(readFileSync(app.configPath, 'utf8'));
    assert.equal(cfg.ui.language, 'zh-CN');
    assert.equal(cfg.agents.defaults.temperature, 0.5);
    await page.screenshot({ path: join(shots, 'settings-zh.png') });
    assert.deepEqual(errors, []);
  });
});

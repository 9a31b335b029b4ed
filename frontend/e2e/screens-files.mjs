// Screenshots of issue 33's files (docs/files.md), in English and Chinese, light and dark,
// and at the minimum width (640 px), for a look by eye (scripts/screens.sh; SCREENS=files
// runs only these): build/screens/files-*.png.
//   files-chat: a message with three chips (a note sent whole, a manual too big for the
//     4 096-token model and so searched, a file Hearth cannot read with its problem) and the
//     answer with its Sources row;
//   files-cited: the manual's cited line clicked — the file read-only, scrolled there, marked;
//   files-knowledge: Settings › Knowledge with one folder listed and its status;
//   files-vision: a picture to a model that cannot see, refused, the vision model offered.
// The native folder dialog cannot be driven: the page's ChooseFolder binding answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const out = join(repoRoot, 'build/screens');
mkdirSync(out, { recursive: true });

const models = [
  { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 4096, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  { name: 'gemma3:4b', family: 'gemma3', size: 3338801804, contextLength: 131072, capabilities: ['completion', 'vision'], parameterSize: '4.3B', quantization: 'Q4_K_M' },
];
const words = {
  en: {
    skip: 'Skip setup', hide: 'Hide these until they change', views: 'Views', settings: 'Settings', knowledge: 'Knowledge', newChat: 'New chat',
    ask: 'Where is the spare key, and when is the boiler serviced?',
    notes: 'Household notes.\nThe spare key is under the blue pot by the door.\nThe bins go out on Tuesday night.\n',
    manualLine: (i) => (i === 412 ? 'Service: the boiler is serviced every March by the installer; keep the receipt.' : `Section ${Math.ceil(i / 20)}, step ${i}: check the pressure gauge reads between 1 and 1.5 bar before going on.`),
    answer: 'The spare key is under the blue pot by the door [notes.txt line 2], and the boiler is serviced every March [boiler-manual.txt line 412].',
    folder: 'notes', look: 'What is in this picture?',
  },
  'zh-CN': {
    skip: '跳过设置', hide: '隐藏，直到它们有变化', views: '视图', settings: '设置', knowledge: '知识库', newChat: '新对话',
    ask: '备用钥匙在哪里？锅炉什么时候保养？',
    notes: '家务笔记。\n备用钥匙在门边的蓝色花盆下面。\n周二晚上把垃圾桶推出去。\n',
    manualLine: (i) => (i === 412 ? '保养：锅炉每年三月由安装师傅保养一次，请保留收据。' : `第 ${Math.ceil(i / 20)} 节，第 ${i} 步：继续之前，确认压力表读数在 1 到 1.5 bar 之间。`),
    answer: '备用钥匙在门边的蓝色花盆下面 [notes.txt line 2]，锅炉每年三月保养 [boiler-manual.txt line 412]。',
    folder: '笔记', look: '这张图片里有什么？',
  },
};
const notesFolder = {
  en: { 'garden.md': '# Garden\n\nTomatoes go in the south bed in May.\n', 'house/keys.md': '# Keys\n\nThe shed key hangs by the back door.\n', 'recipes/soup.md': '# Soup\n\nLeek and potato.\n', 'todo.txt': 'Paint the fence.\n' },
  'zh-CN': { '花园.md': '# 花园\n\n五月在南边的花坛种番茄。\n', '家/钥匙.md': '# 钥匙\n\n棚子的钥匙挂在后门旁。\n', '菜谱/汤.md': '# 汤\n\n韭葱土豆汤。\n', '待办.txt': '刷篱笆。\n' },
};
// A 48×32 picture: a few stripes, so the thumbnail shows something.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAAOklEQVR42u3OMQ0AQAjAQIQhDImvBB0YYOWnSzp2uOjKtay3dv0HEBAQEBAQEBAQEBAQEBAQENBP0ACvIUKI+kMqiAAAAABJRU5ErkJggg==';

/** Drops files on the composer as a file manager would ({name, type, text} or {name, type, b64}). */
const drop = (pg, files) =>
  pg.evaluate((files) => {
    const dt = new DataTransfer();
    const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    for (const f of files) dt.items.add(new File([f.b64 ? bytes(f.b64) : f.text], f.name, { type: f.type }));
    document.querySelector('.composer .box').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);

const chrome = await openBrowser();
try {
  for (const lang of ['en', 'zh-CN']) {
    const w = words[lang];
    const manual = Array.from({ length: 900 }, (_, i) => w.manualLine(i + 1)).join('\n') + '\n';
    const ollama = await startFakeOllama(undefined, { models, replies: [{ content: w.answer }] });
    const app = await startHearth({ ollamaHost: ollama.host, config: { agents: { defaults: { model: 'ollama/qwen3:4b', embeddingModel: '' } }, ui: { language: lang } } });
    const folder = join(app.home, w.folder);
    for (const [rel, text] of Object.entries(notesFolder[lang])) {
      mkdirSync(join(folder, rel, '..'), { recursive: true });
      writeFileSync(join(folder, rel), text);
    }
    try {
      for (const scheme of ['light', 'dark']) {
        const { page: pg, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
        const shot = async (name) => {
          await pg.waitForTimeout(300);
          await pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
          if (scheme === 'light') {
            await pg.setViewportSize({ width: 640, height: 720 });
            await pg.waitForTimeout(300);
            await pg.screenshot({ path: join(out, `${name}-640-${lang}.png`) });
            await pg.setViewportSize({ width: 1100, height: 720 });
          }
        };
        const skip = pg.getByTestId('first-run').getByRole('button', { name: w.skip });
        if (await skip.isVisible({ timeout: 5000 }).catch(() => false)) await skip.click();
        const hide = pg.getByTestId('config-warnings').getByRole('button', { name: w.hide });
        if (await hide.isVisible().catch(() => false)) await hide.click();
        const box = pg.locator('.composer textarea');

        // (a) A message with its chips, and the answer with its sources.
        if (scheme === 'light') {
          await drop(pg, [
            { name: 'notes.txt', type: 'text/plain', text: w.notes },
            { name: 'boiler-manual.txt', type: 'text/plain', text: manual },
            { name: 'scan.raw', type: 'application/octet-stream', text: 'not text' },
          ]);
          await pg.getByTestId('file-chip').nth(2).waitFor();
          await box.fill(w.ask);
          await box.press('Enter');
        } else {
          await pg.getByRole('list').getByText(w.ask).first().click();
        }
        await pg.getByTestId('sources').waitFor({ timeout: 20000 });
        await pg.getByTestId('msg-user').last().getByTestId('file-chip-error').waitFor({ timeout: 20000 });
        await shot('files-chat');

        // (a2) The manual's cited line, clicked: the file read-only at the line, marked.
        await pg.getByTestId('sources').getByRole('button', { name: 'boiler-manual.txt line 412' }).click();
        await pg.getByTestId('cited-file').locator('[data-found="true"]').waitFor();
        await shot('files-cited');
        await pg.keyboard.press('Escape');
        await pg.getByTestId('cited-file').waitFor({ state: 'detached' });

        // (b) Settings › Knowledge with the folder and its status.
        await pg.getByRole('navigation', { name: w.views }).getByRole('button', { name: w.settings }).click();
        await pg.getByRole('tab', { name: w.knowledge }).click();
        await pg.getByTestId('knowledge-settings').waitFor();
        if (scheme === 'light') {
          await pg.evaluate((p) => {
            window.go.main.App.ChooseFolder = async () => p;
          }, folder);
          await pg.getByTestId('knowledge-add').click();
        }
        await pg.getByTestId('knowledge-folder').waitFor();
        await pg.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid="knowledge-status"]')?.textContent ?? '') && !document.querySelector('.knowledge .updating'));
        await shot('files-knowledge');

        // (c) A picture to the model that cannot see: refused, the vision model offered.
        await pg.getByRole('button', { name: w.newChat }).first().click();
        await drop(pg, [{ name: 'stripes.png', type: 'image/png', b64: PNG }]);
        await pg.getByRole('img', { name: 'stripes.png' }).waitFor();
        await box.fill(w.look);
        await box.press('Enter');
        await pg.getByTestId('vision-offer').waitFor({ timeout: 20000 });
        await shot('files-vision');
        await context.close();
      }
    } finally {
      await app.stop();
      await ollama.stop();
    }
  }
  console.log(`the files' screens written to ${out}`);
} finally {
  await chrome.close();
}

// Benchmark (make bench): opening a long chat, in Chromium against the dev build. For chats
// of 500 and 2 000 stored messages (Markdown, code blocks, tables, tool cards) it prints the
// time from the click on the chat in the list to the frame that shows its last message, and
// the long tasks (> 50 ms) from the click until a second after that frame. Each chat is
// opened several times, coming from a short chat each time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyLines } from './bench-history.mjs';
import { openBrowser, startFakeOllama, startHearth } from './harness.mjs';
import { cpuSpan, loadAverage, startCpuTrace } from './bench-cpu.mjs';

const SIZES = (process.env.BENCH_OPEN_SIZES ?? '500,2000').split(',').map(Number);
const REPS = Number(process.env.BENCH_OPEN_REPS ?? 5);
const LONG_LAST = Number(process.env.BENCH_OPEN_LONG_LAST ?? 20000);
const PAINT_TARGET = 150;
const LONG_TARGET = 50;

/** Prints the functions with the most self time (BENCH_PROFILE=1; build unminified to read them). */
function printProfile(profile) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  console.log([...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v.toFixed(1)}ms ${k}`).join('\n'));
}

const ollama = await startFakeOllama();
const app = await startHearth({
  ollamaHost: ollama.host,
  config: { agents: { defaults: { memoryWindow: 100000, recallBlock: { enabled: false } } } },
});
const chrome = await openBrowser();
let failed = false;
try {
  const dir = join(app.home, 'data', 'hearth', 'sessions');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'short.jsonl'), historyLines('short', 'Short chat', 4));
  for (const n of SIZES) writeFileSync(join(dir, `open${n}.jsonl`), historyLines(`open${n}`, `Chat of ${n}`, n));
  // The chat a 20 000-token answer was streamed into (bench-stream): its last message alone is long.
  const cases = SIZES.map((n) => ({ id: `open${n}`, title: `Chat of ${n}`, label: `${n}-messages`, n, text: `Last answer open${n}.` }));
  if (LONG_LAST) {
    writeFileSync(join(dir, 'openlong.jsonl'), historyLines('openlong', 'Chat with a long answer', 500, LONG_LAST));
    cases.push({ id: 'openlong', title: 'Chat with a long answer', label: `500-messages-last-${LONG_LAST}-tokens`, n: 500, text: `word${LONG_LAST - 2}` });
  }

  const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    localStorage.setItem('hearth.firstRunDone', '1');
    const b = (window.__openBench = { armed: '', clickAt: 0, paintAt: 0, long: [] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.long.push({ at: e.startTime, ms: Math.round(e.duration) });
    }).observe({ type: 'longtask' });
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      b.paintAt = performance.now();
      performance.mark('bench-paint');
    };
    // The frame whose rAF first finds the chat's last message in the DOM shows it; a task
    // posted from that rAF runs once the frame is done.
    const watch = (text) => {
      const last = [...document.querySelectorAll('[data-testid="msg-assistant"]')].pop();
      if (last?.textContent.includes(text)) ch.port2.postMessage(0);
      else requestAnimationFrame(() => watch(text));
    };
    document.addEventListener(
      'click',
      (e) => {
        if (!b.armed) return;
        b.clickAt = e.timeStamp;
        performance.mark('bench-click');
        b.paintAt = 0;
        b.long.length = 0;
        const text = b.armed;
        b.armed = '';
        requestAnimationFrame(() => watch(text));
      },
      true,
    );
  });
  const page = await context.newPage();
  await page.goto(app.url);
  const list = page.getByRole('list', { name: 'Chats' });
  await list.getByText('Short chat').waitFor();

  console.log();
  console.log(`targets: opening a 2 000-message chat shows its last message < ${PAINT_TARGET} ms after the click; no long task over ${LONG_TARGET} ms`);
  for (const { id, title, label, n, text } of cases) {
    const paints = [];
    const longs = [];
    const cpus = [];
    for (let rep = 0; rep < REPS; rep++) {
      await list.getByText('Short chat').click();
      await page.getByText('Last answer short.').waitFor();
      await page.waitForTimeout(300);
      await page.evaluate((t) => (window.__openBench.armed = t), text);
      const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const tcdp = process.env.BENCH_CPU ? await context.newCDPSession(page) : null;
      const trace = tcdp ? await startCpuTrace(tcdp) : null;
      await list.getByText(title).click();
      await page.waitForFunction(() => window.__openBench.paintAt > 0, null, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(1000);
      if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
      if (trace) {
        const c = cpuSpan(await trace.stop(), 'bench-click', 'bench-paint');
        if (c) cpus.push(c);
        await tcdp.detach();
      }
      const { clickAt, paintAt, long } = await page.evaluate(() => window.__openBench);
      paints.push(paintAt - clickAt);
      longs.push(...long.filter((l) => l.at >= clickAt - 1).map((l) => l.ms));
    }
    const sorted = [...paints].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const worstLong = Math.max(0, ...longs);
    console.log(`BenchmarkOpen/${label}: click to last message painted median ${median.toFixed(0)} ms (runs: ${paints.map((p) => p.toFixed(0)).join(', ')})`);
    console.log(`  long tasks from the click to 1 s after the paint: ${longs.length ? longs.join(', ') + ' ms' : 'none'} over ${REPS} openings`);
    if (cpus.length) {
      const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      console.log(
        `  main-thread CPU time, click to paint: median ${med(cpus.map((c) => c.cpuMs)).toFixed(0)} ms (runs: ${cpus.map((c) => c.cpuMs.toFixed(0)).join(', ')}); ` +
          `longest task's CPU time to 1 s after: ${cpus.map((c) => c.longestTaskCpuMs.toFixed(0)).join(', ')} ms (load average ${await loadAverage()})`,
      );
    }
    if (n >= 2000 && id === `open${n}`) {
      const ok = median < PAINT_TARGET && worstLong <= LONG_TARGET;
      failed ||= !ok;
      console.log(`  target (${n}): paint < ${PAINT_TARGET} ms, no long task > ${LONG_TARGET} ms — ${ok ? 'met' : 'NOT met'}`);
    }
  }
  await context.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  await chrome.close();
  await app.stop();
  await ollama.stop();
}

// CPU time of the page's main thread from a Chromium trace, for the window benchmarks
// (BENCH_CPU=1). On a loaded machine a task's wall time grows with every other process
// that gets the core; its thread time (the trace's tdur) counts only what the page itself
// ran, so figures taken under load stay comparable. Spans are marked in the page with
// performance.mark(name), which the trace carries as user timing.
const CATEGORIES = ['disabled-by-default-devtools.timeline', 'devtools.timeline', 'blink.user_timing', '__metadata'].join(',');

/** Starts a trace on the page's CDP session; stop() returns the collected events. */
export async function startCpuTrace(cdp) {
  const events = [];
  const onData = ({ value }) => events.push(...value);
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return {
    async stop() {
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      cdp.off('Tracing.dataCollected', onData);
      return events;
    },
  };
}

/** The renderer main thread's tasks ({ts, dur, tdur} in µs) and the marks by name. */
export function mainThread(events) {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return { tasks: [], marks: new Map() };
  const tasks = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'RunTask' && typeof e.tdur === 'number')
    .map((e) => ({ ts: e.ts, dur: e.dur, tdur: e.tdur }));
  const marks = new Map();
  for (const e of events) {
    if (e.pid === main.pid && e.cat?.includes('blink.user_timing') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n')) marks.set(e.name, e.ts);
  }
  return { tasks, marks };
}

/**
 * CPU figures of the span between two marks: the main thread's CPU time in tasks that
 * started inside it, and the longest single task's CPU time from the first mark to
 * `after` µs past the second (the work that follows the paint, e.g. filling a screen).
 */
export function cpuSpan(events, from, to, after = 1_000_000) {
  const { tasks, marks } = mainThread(events);
  const a = marks.get(from);
  const b = marks.get(to);
  if (a === undefined || b === undefined) return null;
  const inSpan = tasks.filter((t) => t.ts >= a - 1000 && t.ts <= b);
  const later = tasks.filter((t) => t.ts >= a - 1000 && t.ts <= b + after);
  return {
    cpuMs: inSpan.reduce((s, t) => s + t.tdur, 0) / 1000,
    longestTaskCpuMs: Math.max(0, ...later.map((t) => t.tdur)) / 1000,
    tasksOver50: later.filter((t) => t.tdur > 50_000).length,
  };
}

/** The CPU time of every main-thread task in the trace (a streaming run). */
export function cpuTasks(events) {
  return mainThread(events).tasks.map((t) => t.tdur / 1000);
}

/** The current load average, for the record beside every figure. */
export async function loadAverage() {
  const { readFileSync } = await import('node:fs');
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

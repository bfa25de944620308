// Chromium traces for the launch benchmark (bench/launch.mjs): recording one over CDP, and the renderer main thread's
// work in a window of it, classified as Lighthouse does (core/lib/tracehouse/task-groups.js and main-thread-tasks.js,
// the basis of its "mainthread-work-breakdown" and "bootup-time" audits):
//
// - the main thread's complete events are nested by time into trees (the top level is the scheduler's RunTask);
// - each event belongs to the group its name names (below), else to its parent's group, else 'other';
// - each event's self time (its duration less its children's) counts for its group: nothing is counted twice, and a
//   style recalculation or layout forced from JS counts as style & layout, not as scripting;
// - scripting = Script Evaluation + Script Parsing & Compilation (what bootup-time calls "Script Evaluation" and
//   "Script Parse"); compilation on V8's background threads is not on the main thread and is not counted.
// Events are clipped to the window [from, to] (a task running across `to` counts up to `to`). Each event also gets a
// script URL (its own args.data.url, else its parent's): the benchmark harness's own scripts (the probe, Playwright's
// bindings) are reported apart and left out of `scripting`.

/** Trace categories: the DevTools timeline (tasks, script, style, layout, paint, GC), V8 execution, user timing. */
export const TRACE_CATEGORIES = [
  'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', '__metadata',
];

/** Lighthouse's task groups by trace event name. */
const GROUPS = {
  parseHTML: ['ParseHTML', 'ParseAuthorStyleSheet'],
  styleLayout: ['ScheduleStyleRecalculation', 'UpdateLayoutTree', 'RecalculateStyles', 'InvalidateLayout', 'Layout'],
  paintCompositeRender: ['Animation', 'HitTest', 'PaintSetup', 'Paint', 'PaintImage', 'RasterTask', 'ScrollLayer', 'UpdateLayer', 'UpdateLayerTree', 'CompositeLayers', 'PrePaint'],
  scriptParseCompile: ['v8.compile', 'v8.compileModule', 'v8.parseOnBackground'],
  scriptEvaluation: ['EventDispatch', 'EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame', 'RunMicrotasks', 'V8.Execute'],
  garbageCollection: ['MinorGC', 'MajorGC', 'BlinkGC.AtomicPhase', 'ThreadState::performIdleLazySweep', 'ThreadState::completeSweep', 'BlinkGCMarking'],
};
const GROUP_OF = new Map(Object.entries(GROUPS).flatMap(([group, names]) => names.map((name) => [name, group])));
export const SCRIPTING_GROUPS = ['scriptEvaluation', 'scriptParseCompile'];

/**
 * Starts a trace on a CDP session; returns `stop()`, which ends it and resolves to its events.
 * @param {import('playwright-core').CDPSession} cdp
 */
export async function startTrace(cdp) {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: TRACE_CATEGORIES },
  });
  return async function stop() {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    const { stream } = await complete;
    const parts = [];
    for (;;) {
      const { data, eof, base64Encoded } = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
      parts.push(base64Encoded ? Buffer.from(data, 'base64').toString('utf8') : data);
      if (eof) break;
    }
    await cdp.send('IO.close', { handle: stream });
    const parsed = JSON.parse(parts.join(''));
    return Array.isArray(parsed) ? parsed : parsed.traceEvents;
  };
}

/**
 * The performance mark `name` (blink.user_timing) in the trace: {ts, pid, tid, timeOrigin} (timeOrigin: the page's
 * performance.now() zero in trace time), the last one when there are several; undefined when absent.
 */
export function findMark(events, name) {
  let found;
  for (const e of events) if (e.name === name && e.cat?.includes('blink.user_timing') && (!found || e.ts > found.ts)) found = e;
  // args.data.startTime is the mark's performance.now(): ts less it is the page's time origin in trace time.
  const startTime = found?.args?.data?.startTime;
  return found && { ts: found.ts, pid: found.pid, tid: found.tid, timeOrigin: typeof startTime === 'number' ? found.ts - startTime * 1000 : undefined };
}

/**
 * The navigation start of the document at `url` in process `pid` (the blink.user_timing `navigationStart` event), the
 * last one at or before `before`.
 */
export function findNavigationStart(events, { pid, url, before = Infinity }) {
  let found;
  for (const e of events) {
    if (e.name !== 'navigationStart' || e.pid !== pid || e.ts > before) continue;
    const doc = e.args?.data?.documentLoaderURL;
    if (doc && url && doc !== url) continue;
    if (!found || e.ts > found.ts) found = e;
  }
  return found?.ts;
}

const urlOf = (e) => e.args?.data?.url || e.args?.data?.stackTrace?.[0]?.url || e.args?.beginData?.url || e.args?.data?.scriptName || '';

/** The complete events of one thread as intervals (X events, and B/E pairs matched per name). */
function intervalsOf(events, pid, tid) {
  const out = [];
  const open = [];
  for (const e of events) {
    if (e.pid !== pid || e.tid !== tid) continue;
    if (e.ph === 'X' && typeof e.dur === 'number') out.push({ name: e.name, start: e.ts, end: e.ts + e.dur, url: urlOf(e) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const i = open.findLastIndex((b) => b.name === e.name || !e.name);
      if (i >= 0) {
        const [b] = open.splice(i, 1);
        out.push({ name: b.name, start: b.ts, end: e.ts, url: urlOf(b) || urlOf(e) });
      }
    }
  }
  return out;
}

/**
 * The main thread's work in [from, to] (trace µs) on thread (pid, tid), in ms: `byGroup` (self times by Lighthouse
 * group), `byName` (self times by event name, largest first), `scripting` (evaluation + parse/compile without the harness), `harnessScripting` (that of URLs `isHarness`
 * matches), `total` (the top-level events, clipped), `scriptingByUrl`, and `scriptingInclusive` (the other way of
 * counting: the whole duration of each outermost scripting event, style and layout forced from JS included).
 * @param {object[]} events @param {{pid: number, tid: number, from: number, to: number, isHarness?: (url: string) => boolean}} options
 */
export function mainThreadWork(events, { pid, tid, from, to, isHarness = () => false }) {
  const intervals = intervalsOf(events, pid, tid)
    .filter((i) => i.end > from && i.start < to)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const clip = (i) => Math.max(0, Math.min(i.end, to) - Math.max(i.start, from));
  const byGroup = {};
  const byName = {};
  const scriptingByUrl = {};
  let total = 0;
  let harnessScripting = 0;
  let scriptingInclusive = 0;
  /** @type {{end: number, group: string, url: string, self: number, interval: object}[]} */
  const stack = [];
  const close = (node) => {
    byGroup[node.group] = (byGroup[node.group] ?? 0) + node.self;
    byName[node.name] = (byName[node.name] ?? 0) + node.self;
    if (SCRIPTING_GROUPS.includes(node.group)) {
      if (isHarness(node.url)) harnessScripting += node.self;
      else scriptingByUrl[node.url || '(no url)'] = (scriptingByUrl[node.url || '(no url)'] ?? 0) + node.self;
    }
  };
  for (const i of intervals) {
    while (stack.length && stack.at(-1).end <= i.start) close(stack.pop());
    const parent = stack.at(-1);
    const end = parent ? Math.min(i.end, parent.end) : i.end; // a child never outlasts its parent
    const node = { end, name: i.name, group: GROUP_OF.get(i.name) ?? parent?.group ?? 'other', url: i.url || parent?.url || '', self: 0 };
    const d = clip({ start: i.start, end });
    if (SCRIPTING_GROUPS.includes(node.group) && !SCRIPTING_GROUPS.includes(parent?.group) && !isHarness(node.url)) scriptingInclusive += d;
    node.self = d;
    if (parent) parent.self -= d;
    else total += d;
    stack.push(node);
  }
  while (stack.length) close(stack.pop());
  const ms = (v) => v / 1000;
  const scripting = Object.values(scriptingByUrl).reduce((a, b) => a + b, 0);
  return {
    scripting: ms(scripting),
    harnessScripting: ms(harnessScripting),
    scriptingInclusive: ms(scriptingInclusive),
    total: ms(total),
    byGroup: Object.fromEntries(Object.entries(byGroup).map(([k, v]) => [k, ms(v)])),
    byName: Object.fromEntries(Object.entries(byName).map(([k, v]) => [k, ms(v)]).sort((a, b) => b[1] - a[1])),
    scriptingByUrl: Object.fromEntries(Object.entries(scriptingByUrl).map(([k, v]) => [k, ms(v)]).sort((a, b) => b[1] - a[1])),
  };
}

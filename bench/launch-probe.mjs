// The in-page probe of the launch benchmark (bench/launch.mjs), added with addInitScript so it runs before any script
// of the page. Every time is the page's own clock: performance.now() / event.timeStamp, 0 = the navigation's start.
//
// It keeps the shadow root of the measured element (wrapping attachShadow, so a closed root is seen too), looks into
// it once per animation frame (before that frame's style, layout and paint, which then show what it saw; no
// MutationObserver, whose records would add to the page's JS work and heap), and records:
// - launcherUsableAt: the first frame in which a launcher (`probe.launcher`, a selector list) exists in the shadow
//   root, is enabled (not `disabled`, not `aria-disabled="true"`), configured (neither it nor an ancestor in the shadow
//   root has `aria-busy="true"`) and visible (checkVisibility with opacity and visibility, a box of some size inside
//   the viewport); the time is taken when that frame's rendering is done (a message posted from the rAF callback),
//   the launcher still in place and enabled: the launcher painted and usable. A performance mark `bench:launcher-usable` is
//   set then (the trace finds the moment by it), and the JS heap is read (performance.memory, precise with
//   --enable-precise-memory-info);
// - intentAt: the timeStamp of the first pointerdown (the press on the launcher), and a mark `bench:intent`;
// - panelShownAt / panelUsableAt: after the press, the end of the first frame showing the panel (`probe.panel`)
//   visible; the end of the first frame showing its first control (`probe.panelControls`) visible and enabled (mark
//   `bench:panel-usable`).
// It reports to the benchmark through the binding `__benchReport(kind, state)` ('launcher', 'panel').
// The probe's own script is named bench-probe.js (sourceURL) so the trace analysis leaves its cost out.

/** The probe's name in traces (its `//# sourceURL`). */
export const PROBE_URL = 'bench-probe.js';

/**
 * The init script for one widget: `probe` = {tag, launcher, panel?, panelControls?}; `pathPrefix` limits it to the
 * benchmark's pages.
 */
export function probeScript(probe, pathPrefix = '/page/') {
  return `(${probeMain.toString()})(${JSON.stringify({ ...probe, pathPrefix })});\n//# sourceURL=${PROBE_URL}\n`;
}

/** Runs in the page (serialized: no references outside). */
function probeMain(cfg) {
  if (!location.pathname.startsWith(cfg.pathPrefix) || window.__benchProbe) return;
  const state = {
    launcherUsableAt: null, heapUsedAtLauncher: null, launcherRect: null,
    intentAt: null, panelShownAt: null, panelUsableAt: null,
  };
  window.__benchProbe = state;
  const roots = new WeakMap();
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (this.localName === cfg.tag) roots.set(this, root);
    return root;
  };
  const report = (kind) => {
    try {
      window.__benchReport?.(kind, JSON.parse(JSON.stringify(state)));
    } catch {
      // the binding is missing: the benchmark reads window.__benchProbe
    }
  };
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  };
  const enabled = (el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true' && !el.closest('[aria-busy="true"]');
  const rootOf = () => {
    const host = document.querySelector(cfg.tag);
    return host && (roots.get(host) ?? host.shadowRoot);
  };
  /** The elements matching `selector` in `root` that are enabled (no layout needed). */
  const candidates = (root, selector) => (root && selector ? [...root.querySelectorAll(selector)].filter(enabled) : []);
  /** The first matching element that is enabled and visible (this one forces style and layout). */
  const find = (root, selector) => candidates(root, selector).find(visible) ?? null;
  /** Runs `fn` once the current frame's rendering is done: a message posted from a requestAnimationFrame callback. */
  const afterThisFrame = (fn) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn();
    channel.port2.postMessage(0);
  };
  let launcherPending = false;
  let panelPending = false;
  // In each animation frame (before its style, layout and paint, which then show what is checked here).
  function frameCheck() {
    const root = rootOf();
    if (!root) return;
    const launcher = state.launcherUsableAt === null && !launcherPending ? find(root, cfg.launcher) : null;
    if (launcher) {
      launcherPending = true;
      afterThisFrame(() => {
        launcherPending = false;
        // Changed by the frame's other callbacks? Then wait for the next frame that shows it (cheap checks only).
        if (!launcher.isConnected || !enabled(launcher)) return;
        state.launcherUsableAt = performance.now();
        performance.mark('bench:launcher-usable');
        state.heapUsedAtLauncher = performance.memory?.usedJSHeapSize ?? null;
        const r = launcher.getBoundingClientRect();
        state.launcherRect = { x: r.x, y: r.y, width: r.width, height: r.height };
        report('launcher');
      });
    }
    if (state.intentAt !== null && state.panelUsableAt === null) {
      if (state.panelShownAt === null && cfg.panel && visible(root.querySelector(cfg.panel))) afterThisFrame(() => (state.panelShownAt ??= performance.now()));
      const control = panelPending ? null : find(root, cfg.panelControls);
      if (control) {
        panelPending = true;
        afterThisFrame(() => {
          panelPending = false;
          if (!control.isConnected || !enabled(control)) return;
          state.panelUsableAt = performance.now();
          state.panelShownAt ??= state.panelUsableAt;
          performance.mark('bench:panel-usable');
          report('panel');
        });
      }
    }
  }
  const watching = () => state.launcherUsableAt === null || (state.intentAt !== null && state.panelUsableAt === null);
  let polling = false;
  const poll = () => {
    frameCheck();
    polling = watching();
    if (polling) requestAnimationFrame(poll);
  };
  const startPolling = () => {
    if (polling) return;
    polling = true;
    requestAnimationFrame(poll);
  };
  startPolling();
  addEventListener('pointerdown', (event) => {
    if (state.intentAt !== null || !cfg.panelControls) return;
    state.intentAt = event.timeStamp;
    performance.mark('bench:intent');
    startPolling();
  }, true);
}

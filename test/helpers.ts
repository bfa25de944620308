import { sendKeys } from '@web/test-runner-commands';
/** Shared test helpers. Fixtures are the reference service's own (demo/service/fixtures), served by the test server. */

/** The `{agent_id, widget_config}` of a fixture: `full`, `minimal` or `text-only`. */
export async function loadFixture(name: 'full' | 'minimal' | 'text-only'): Promise<{ agent_id: string; widget_config: Record<string, unknown> }> {
  const response = await fetch(`/demo/service/fixtures/widget-config.${name}.json`);
  if (!response.ok) throw new Error(`fixture ${name}: HTTP ${response.status}`);
  return response.json();
}

/** Waits until `predicate` (sync or async) holds, polling every 10 ms, or fails after `timeoutMs` with `message`. */
export async function until(predicate: () => unknown, message: string, timeoutMs = 5000): Promise<void> {
  const start = performance.now();
  while (!(await predicate())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The nodes that `step` (sync or async) changed under `target`: the target node of every mutation record (children,
 * text or attributes, in the whole subtree), in order, one entry per record.
 */
export async function mutatedNodes(target: Node, step: () => Promise<unknown> | unknown): Promise<Node[]> {
  const changed: Node[] = [];
  const observer = new MutationObserver((records) => changed.push(...records.map((r) => r.target)));
  observer.observe(target, { subtree: true, childList: true, characterData: true, attributes: true });
  try {
    await step();
    changed.push(...observer.takeRecords().map((r) => r.target));
  } finally {
    observer.disconnect();
  }
  return changed;
}

/**
 * Collects console.warn / console.error lines while `run` runs; restores the console after. `target`: another
 * window's console (a frame's), default this one's.
 */
export async function captureConsole<T>(run: () => Promise<T> | T, target: Console = console): Promise<{ result: T; warnings: string[]; errors: string[] }> {
  const warnings: string[] = [];
  const errors: string[] = [];
  const { warn, error } = target;
  target.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  target.error = (...args: unknown[]) => errors.push(args.map(String).join(' '));
  try {
    return { result: await run(), warnings, errors };
  } finally {
    target.warn = warn;
    target.error = error;
  }
}

/** The engine the test runs in (web-test-runner.config.mjs runs every file in the three). */
export const engine: 'chromium' | 'firefox' | 'webkit' = / Firefox\//.test(navigator.userAgent)
  ? 'firefox'
  : /Chrome\//.test(navigator.userAgent)
    ? 'chromium'
    : 'webkit';

/**
 * `it`, or `it.skip` in the `engines` named, with the reason in the skipped test's title, so that a run says which
 * tests an engine does not run and why (an API the engine lacks, a bug of the engine's own).
 */
export function itExcept(engines: readonly (typeof engine)[], reason: string): Mocha.TestFunction | Mocha.PendingTestFunction {
  if (!engines.includes(engine)) return it;
  return ((title: string, fn?: Mocha.Func | Mocha.AsyncFunc) => it.skip(`${title} [skipped in ${engine}: ${reason}]`, fn)) as Mocha.PendingTestFunction;
}

/**
 * Presses `key` with @web/test-runner-commands' `sendKeys`; a combination (`Shift+Tab`) is held down and released key
 * by key, as every engine's driver takes it (WebDriver BiDi and WebDriver have no combined key names).
 */
export async function pressKey(key: string): Promise<void> {
  // WebDriver BiDi (Firefox) and WebDriver (WebKit) know the space bar only as ' '.
  if (key === 'Space' && engine !== 'chromium') key = ' ';
  const keys = key.split('+');
  if (engine === 'webkit' && keys.length > 1) {
    // WebDriver takes only press and type; a modifier typed as its WebDriver code stays down to the end of the sequence.
    const codes: Record<string, string> = { Shift: '\uE008', Control: '\uE009', Alt: '\uE00A', Meta: '\uE03D', Tab: '\uE004', Enter: '\uE007' };
    return void (await sendKeys({ type: keys.map((name) => codes[name] ?? name).join('') }));
  }
  const last = keys.pop()!;
  for (const held of keys) await sendKeys({ down: held });
  await sendKeys({ press: last });
  for (const held of keys.reverse()) await sendKeys({ up: held });
}

/**
 * Types `text` into the focused element with `sendKeys`. WebKitWebDriver drops a key that comes again in one sequence
 * ("hello" arrives as "helo", "a & b" as "a &b"): there the text goes in runs that hold each key once ("hel", "lo"),
 * one sequence each (a sequence per character took up to 0.5 s a key in a voice call, 8 s for a sentence).
 */
export async function typeText(text: string): Promise<void> {
  if (engine !== 'webkit') return void (await sendKeys({ type: text }));
  const runs: string[] = [];
  for (const character of text) {
    if (runs.length && !runs[runs.length - 1]!.includes(character)) runs[runs.length - 1] += character;
    else runs.push(character);
  }
  for (const run of runs) await sendKeys({ type: run });
}


/** The RMS level (0..1 of full scale) that a call's level meter shows at `position` (0..1: -50 to -10 dBFS; src/audio/level-meter.ts). */
export const meterRms = (position: number): number => 10 ** ((position * 40 - 50) / 20);

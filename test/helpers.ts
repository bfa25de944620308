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

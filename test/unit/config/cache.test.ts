/**
 * The configuration cache (src/config/cache.ts): what it keeps and where, its bounds (entries, characters), least
 * recently used eviction, corrupt entries, and storage that is full, throws or is turned off by the page.
 */
import { expect } from '@open-wc/testing';
import {
  CONFIG_CACHE_INDEX_KEY, CONFIG_CACHE_MAX_CHARS, CONFIG_CACHE_MAX_ENTRIES, CONFIG_CACHE_OPT_OUT, CONFIG_CACHE_PREFIX, clearWidgetConfigCache,
  readCachedWidgetConfig, removeCachedWidgetConfig, storeWidgetConfig, type StorageLike,
} from '../../../src/config/cache.js';
import { captureConsole } from '../../helpers.js';

const SERVER = 'https://service.test';

/** An in-memory Storage (insertion-ordered), its keys readable by the test. */
class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** A Storage that holds at most `capacity` characters (keys and values), as a browser's quota does. */
class SmallStorage extends MemoryStorage {
  constructor(private readonly capacity: number) {
    super();
  }
  override setItem(key: string, value: string): void {
    const used = [...this.items].filter(([k]) => k !== key).reduce((sum, [k, v]) => sum + k.length + v.length, 0);
    if (used + key.length + value.length > this.capacity) throw new DOMException('quota', 'QuotaExceededError');
    super.setItem(key, value);
  }
}

/** A Storage whose every method throws (a sandboxed iframe, storage disabled). */
const throwing: StorageLike = {
  get length(): number {
    throw new DOMException('denied', 'SecurityError');
  },
  key: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  getItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  removeItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
};

const agent = (n: number): string => `agent_${n}`;
const configOf = (n: number): string => JSON.stringify({ first_message: `Hello ${n}`, variant: 'tiny' });
const index = (storage: MemoryStorage): string[] => JSON.parse(storage.getItem(CONFIG_CACHE_INDEX_KEY) ?? '[]');

describe('configuration cache', () => {
  afterEach(() => {
    document.documentElement.removeAttribute(CONFIG_CACHE_OPT_OUT);
    clearWidgetConfigCache();
  });

  it('keeps the widget_config text under a versioned key per (server, agent) and gives it back parsed', () => {
    const storage = new MemoryStorage();
    expect(readCachedWidgetConfig(SERVER, 'agent_1', storage), 'nothing cached yet').to.equal(null);
    expect(storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage)).to.equal(true);
    expect([...storage.items.keys()].sort()).to.deep.equal([CONFIG_CACHE_INDEX_KEY, `${CONFIG_CACHE_PREFIX}${SERVER} agent_1`].sort());
    expect(CONFIG_CACHE_PREFIX).to.equal('voice-agent-widget:config:v1:');
    expect(storage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`), 'only the widget_config, as the service sent it').to.equal(configOf(1));
    expect(readCachedWidgetConfig(SERVER, 'agent_1', storage)).to.deep.equal({ config: JSON.parse(configOf(1)), json: configOf(1) });
    expect(readCachedWidgetConfig('https://other.test', 'agent_1', storage), 'another server is another entry').to.equal(null);
    expect(readCachedWidgetConfig(SERVER, 'agent_2', storage)).to.equal(null);
  });

  it(`keeps at most ${CONFIG_CACHE_MAX_ENTRIES} entries, evicting the least recently used (read or stored)`, () => {
    const storage = new MemoryStorage();
    for (let n = 1; n <= CONFIG_CACHE_MAX_ENTRIES; n += 1) storeWidgetConfig(SERVER, agent(n), configOf(n), storage);
    expect(readCachedWidgetConfig(SERVER, agent(1), storage), 'agent_1 read: now the most recently used').to.not.equal(null);
    storeWidgetConfig(SERVER, agent(2), configOf(22), storage); // stored again: most recently used too
    storeWidgetConfig(SERVER, agent(9), configOf(9), storage);
    expect(readCachedWidgetConfig(SERVER, agent(3), storage), 'the least recently used is gone').to.equal(null);
    storeWidgetConfig(SERVER, agent(10), configOf(10), storage);
    expect(readCachedWidgetConfig(SERVER, agent(4), storage)).to.equal(null);
    for (const n of [1, 2, 5, 6, 7, 8, 9, 10]) expect(readCachedWidgetConfig(SERVER, agent(n), storage), agent(n)).to.not.equal(null);
    expect(readCachedWidgetConfig(SERVER, agent(2), storage)!.json).to.equal(configOf(22));
    expect(storage.length, `${CONFIG_CACHE_MAX_ENTRIES} entries and the recency list`).to.equal(CONFIG_CACHE_MAX_ENTRIES + 1);
    expect(index(storage)[0]).to.equal(`${CONFIG_CACHE_PREFIX}${SERVER} agent_2`);
  });

  it(`does not keep a configuration over ${CONFIG_CACHE_MAX_CHARS} characters, and drops the older one of that agent`, () => {
    const storage = new MemoryStorage();
    storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage);
    const huge = JSON.stringify({ terms_text: 'x'.repeat(CONFIG_CACHE_MAX_CHARS) });
    expect(storeWidgetConfig(SERVER, 'agent_1', huge, storage)).to.equal(false);
    expect(readCachedWidgetConfig(SERVER, 'agent_1', storage)).to.equal(null);
    expect(storage.length).to.equal(0);
  });

  const corrupt: [string, string][] = [
    ['not JSON', '{"variant": "ti'],
    ['JSON but not an object', '[1,2]'],
    ['null', 'null'],
    ['longer than the bound', JSON.stringify({ x: 'y'.repeat(CONFIG_CACHE_MAX_CHARS) })],
  ];
  for (const [what, text] of corrupt) {
    it(`drops an entry that is ${what}, with a console warning`, async () => {
      const storage = new MemoryStorage();
      storeWidgetConfig(SERVER, 'agent_2', configOf(2), storage);
      storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage);
      storage.setItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`, text);
      const { result, warnings, errors } = await captureConsole(() => readCachedWidgetConfig(SERVER, 'agent_1', storage));
      expect(result).to.equal(null);
      expect(warnings).to.deep.equal([
        `[voice-agent-widget] the cached configuration of agent "agent_1" from ${SERVER} was unreadable and is dropped; reading it from the service.`,
      ]);
      expect(errors).to.deep.equal([]);
      expect(storage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`)).to.equal(null);
      expect(index(storage), 'out of the recency list too').to.deep.equal([`${CONFIG_CACHE_PREFIX}${SERVER} agent_2`]);
      expect(readCachedWidgetConfig(SERVER, 'agent_2', storage), 'the others stay').to.not.equal(null);
    });
  }

  it('survives a corrupt recency list, and removes keys of the family it does not name (older versions) on the next store', () => {
    const storage = new MemoryStorage();
    storage.setItem('voice-agent-widget:config:v0:https://service.test agent_1', '{}');
    storage.setItem('terms_v1', 'accepted'); // not the cache's: left alone
    storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage);
    storage.setItem(CONFIG_CACHE_INDEX_KEY, '{not a list');
    expect(readCachedWidgetConfig(SERVER, 'agent_1', storage), 'the entry is still found by its key').to.not.equal(null);
    storeWidgetConfig(SERVER, 'agent_2', configOf(2), storage);
    expect([...storage.items.keys()].sort()).to.deep.equal(
      [CONFIG_CACHE_INDEX_KEY, `${CONFIG_CACHE_PREFIX}${SERVER} agent_1`, `${CONFIG_CACHE_PREFIX}${SERVER} agent_2`, 'terms_v1'].sort(),
    );
  });

  it('never throws when storage throws on every access: no cache, nothing reported', async () => {
    const { result, warnings, errors } = await captureConsole(() => [
      storeWidgetConfig(SERVER, 'agent_1', configOf(1), throwing),
      readCachedWidgetConfig(SERVER, 'agent_1', throwing),
      removeCachedWidgetConfig(SERVER, 'agent_1', throwing),
      clearWidgetConfigCache(throwing),
    ]);
    expect(result).to.deep.equal([false, null, undefined, undefined]);
    expect([...warnings, ...errors]).to.deep.equal([]);
  });

  it('a full storage (QuotaExceededError) stores nothing and leaves no half-written entry; the older entries stay readable', () => {
    const storage = new SmallStorage(400);
    expect(storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage)).to.equal(true);
    expect(storeWidgetConfig(SERVER, 'agent_2', JSON.stringify({ terms_text: 'x'.repeat(300) }), storage)).to.equal(false);
    expect(storage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_2`)).to.equal(null);
    expect(readCachedWidgetConfig(SERVER, 'agent_2', storage)).to.equal(null);
    expect(readCachedWidgetConfig(SERVER, 'agent_1', storage)!.json).to.equal(configOf(1));
  });

  it(`uses the page's localStorage by default, and none while <html ${CONFIG_CACHE_OPT_OUT}> is set`, () => {
    expect(storeWidgetConfig(SERVER, 'agent_1', configOf(1))).to.equal(true);
    expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`)).to.equal(configOf(1));

    document.documentElement.setAttribute(CONFIG_CACHE_OPT_OUT, '');
    expect(readCachedWidgetConfig(SERVER, 'agent_1'), 'not read while opted out').to.equal(null);
    expect(storeWidgetConfig(SERVER, 'agent_2', configOf(2)), 'not written').to.equal(false);
    removeCachedWidgetConfig(SERVER, 'agent_1');
    expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`), 'not even removed: storage is not touched').to.equal(configOf(1));
    expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_2`)).to.equal(null);

    clearWidgetConfigCache();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('voice-agent-widget:config:')), 'clear() is explicit: it empties').to.deep.equal([]);
  });

  it('removeCachedWidgetConfig removes one entry and its place in the recency list', () => {
    const storage = new MemoryStorage();
    storeWidgetConfig(SERVER, 'agent_1', configOf(1), storage);
    storeWidgetConfig(SERVER, 'agent_2', configOf(2), storage);
    removeCachedWidgetConfig(SERVER, 'agent_2', storage);
    expect(readCachedWidgetConfig(SERVER, 'agent_2', storage)).to.equal(null);
    expect(index(storage)).to.deep.equal([`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`]);
    removeCachedWidgetConfig(SERVER, 'agent_1', storage);
    expect(storage.length, 'the list goes with its last entry').to.equal(0);
  });
});

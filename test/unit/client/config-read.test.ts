/**
 * One configuration read (src/client/config-read.ts) through a fake fetch (DESIGN.md rule 11): cache first, then the
 * prefetch or a request; a failure time may mend retried, a final one reported unless the cached configuration stands
 * in; one run at a time, aborted by `abort()` or a newer `start`. Every test starts with an empty cache.
 */
import { aTimeout, expect } from '@open-wc/testing';
import { WidgetConfigRead } from '../../../src/client/config-read.js';
import type { ServiceEndpoint } from '../../../src/client/paths.js';
import { prefetchWidgetConfig } from '../../../src/client/prefetch.js';
import { clearWidgetConfigCache, readCachedWidgetConfig, storeWidgetConfig } from '../../../src/config/cache.js';
import { captureConsole, until } from '../../helpers.js';
import { FakeFetch } from '../widget/host.js';

const SERVER = 'https://service.test';
const PUBLIC: ServiceEndpoint = { serverUrl: SERVER, agentId: 'agent_1', socketUrl: 'wss://service.test/x', signature: '' };
const PRIVATE: ServiceEndpoint = { ...PUBLIC, signature: 'sig' };
const OLD = { variant: 'tiny' };
const NEW = { variant: 'full' };

/** What the read reported, in order: `['value', widgetConfig, json, cached]` or `['error', cause, error, transient]`. */
type Reported = ['value', unknown, string, boolean] | ['error', string, unknown, boolean];

function makeRead(network = new FakeFetch()): { read: WidgetConfigRead; network: FakeFetch; reported: Reported[] } {
  const reported: Reported[] = [];
  const read = new WidgetConfigRead(
    {
      value: (widgetConfig, json, cached) => void reported.push(['value', widgetConfig, json, cached]),
      error: (cause, error, transient) => void reported.push(['error', cause, error, transient]),
    },
    { fetch: network.fetch },
  );
  return { read, network, reported };
}

const answer = (widgetConfig: unknown) => ({ agent_id: 'agent_1', widget_config: widgetConfig });

describe('WidgetConfigRead', () => {
  // The backoff's draw (client/retry.ts) in the middle: the first retry waits 150 ms, long enough to be seen waiting.
  const { random } = Math;
  beforeEach(() => {
    clearWidgetConfigCache();
    Math.random = () => 0.5;
  });
  afterEach(() => {
    Math.random = random;
    clearWidgetConfigCache();
  });

  it('without a cached configuration: asks the service, reports its answer and stores it', async () => {
    const { read, network, reported } = makeRead();
    read.start(PUBLIC);
    expect(reported, 'nothing to show yet').to.deep.equal([]);
    expect(network.calls.map((call) => call.url)).to.deep.equal([`${SERVER}/v1/convai/agents/agent_1/widget`]);
    network.last.respond(200, answer(NEW));
    await until(() => reported.length, 'the answer');
    expect(reported).to.deep.equal([['value', NEW, JSON.stringify(NEW), false]]);
    expect(readCachedWidgetConfig(SERVER, 'agent_1')!.json).to.equal(JSON.stringify(NEW));
    expect(read.waiting).to.equal(false);
  });

  it('with a cached configuration: reports it at once, within start, then the service\'s answer, which replaces the entry', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { read, network, reported } = makeRead();
    read.start(PUBLIC);
    expect(reported).to.deep.equal([['value', OLD, JSON.stringify(OLD), true]]);
    expect(network.calls, 'and asks the service meanwhile').to.have.length(1);
    network.last.respond(200, answer(NEW));
    await until(() => reported.length === 2, 'the answer');
    expect(reported[1]).to.deep.equal(['value', NEW, JSON.stringify(NEW), false]);
    expect(readCachedWidgetConfig(SERVER, 'agent_1')!.json).to.equal(JSON.stringify(NEW));
  });

  it('a private agent (a conversation signature) neither reads nor writes the cache', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { read, network, reported } = makeRead();
    read.start(PRIVATE);
    expect(reported).to.deep.equal([]);
    expect(network.last.url).to.equal(`${SERVER}/v1/convai/agents/agent_1/widget?conversation_signature=sig`);
    network.last.respond(200, answer(NEW));
    await until(() => reported.length, 'the answer');
    expect(reported[0]![3]).to.equal(false);
    expect(readCachedWidgetConfig(SERVER, 'agent_1')!.json, 'the public entry is untouched').to.equal(JSON.stringify(OLD));
  });

  it('a failure time may mend waits for a retry (a warning, not reported), then the retry\'s answer is reported', async () => {
    const { read, network, reported } = makeRead();
    const { warnings, errors } = await captureConsole(async () => {
      read.start(PRIVATE);
      network.last.respond(503, 'busy');
      await until(() => read.waiting, 'waiting for the retry');
      expect(reported).to.deep.equal([]);
      await until(() => network.calls.length === 2, 'the retry', 3000);
      expect(read.waiting, 'no longer waiting while the retry runs').to.equal(false);
      network.last.respond(200, answer(NEW));
      await until(() => reported.length, 'the answer');
    });
    expect(reported).to.deep.equal([['value', NEW, JSON.stringify(NEW), false]]);
    expect(errors).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('HTTP 503').and.contain('try 2 of 4');
  });

  it('a final failure without a cached configuration is reported once, at once, with its cause', async () => {
    const { read, network, reported } = makeRead();
    read.start(PRIVATE);
    network.last.respond(404, { detail: 'agent not found' });
    await until(() => reported.length, 'the failure');
    await aTimeout(20);
    expect(network.calls, 'not retried').to.have.length(1);
    expect(reported).to.have.length(1);
    const [kind, cause, , transient] = reported[0]!;
    expect(kind).to.equal('error');
    expect(cause).to.contain(`could not read the widget configuration of agent "agent_1" from ${SERVER}`).and.contain('HTTP 404: agent not found');
    expect(transient).to.equal(false);
    expect(read.waiting).to.equal(false);
  });

  it('a final failure while the cached configuration stands in is a warning, not reported; a 4xx removes the entry', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { read, network, reported } = makeRead();
    const { warnings, errors } = await captureConsole(async () => {
      read.start(PUBLIC);
      network.last.respond(404, { detail: 'agent not found' });
      await aTimeout(30);
    });
    expect(reported, 'only the cached configuration').to.have.length(1);
    expect(errors).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('keeping the cached configuration');
    expect(readCachedWidgetConfig(SERVER, 'agent_1')).to.equal(null);
  });

  it('abort() aborts the request and drops its late answer; a newer start aborts the older run', async () => {
    const { read, network, reported } = makeRead(new FakeFetch(false));
    read.start(PRIVATE);
    const first = network.last;
    read.abort();
    expect(first.signal.aborted).to.equal(true);
    read.start(PRIVATE);
    const second = network.last;
    read.start(PRIVATE);
    expect(second.signal.aborted).to.equal(true);
    first.respond(200, answer(OLD));
    second.respond(200, answer(OLD));
    await aTimeout(20);
    expect(reported, 'aborted answers are dropped').to.deep.equal([]);
    network.last.respond(200, answer(NEW));
    await until(() => reported.length, 'the newest answer');
    expect(reported).to.deep.equal([['value', NEW, JSON.stringify(NEW), false]]);
  });

  it('abort() while a retry waits clears its timer: no more requests, nothing reported', async () => {
    const { read, network, reported } = makeRead();
    await captureConsole(async () => {
      read.start(PRIVATE);
      network.last.respond(500, 'boom');
      await until(() => read.waiting, 'waiting for the retry');
    });
    read.abort();
    expect(read.waiting).to.equal(false);
    await aTimeout(350);
    expect(network.calls).to.have.length(1);
    expect(reported).to.deep.equal([]);
  });

  it('takes over the prefetch on the first try of a run only', async () => {
    const early = new FakeFetch();
    prefetchWidgetConfig(SERVER, 'agent_1', 'sig', { fetch: early.fetch });
    const { read, network, reported } = makeRead();
    read.start(PRIVATE);
    expect(network.calls, 'no request of its own').to.deep.equal([]);
    early.last.respond(200, answer(NEW));
    await until(() => reported.length, 'the prefetched answer');
    expect(reported).to.deep.equal([['value', NEW, JSON.stringify(NEW), false]]);
    read.start(PRIVATE);
    expect(network.calls, 'taken once: the next run asks itself').to.have.length(1);
  });
});

/**
 * The early configuration read (src/client/prefetch.ts): `prefetchDocumentWidgets` finds the elements in a document and
 * starts their reads with the endpoint the element will use; `takePrefetchedWidgetConfig` hands each over once.
 * The browser's `fetch` is replaced by a scripted one for each test.
 */
import { expect } from '@open-wc/testing';
import { prefetchDocumentWidgets, prefetchWidgetConfig, takePrefetchedWidgetConfig } from '../../../src/client/prefetch.js';
import { FakeFetch } from '../widget/host.js';

describe('prefetch of the widget configuration', () => {
  let network: FakeFetch;
  const { fetch: browserFetch } = window;
  beforeEach(() => {
    network = new FakeFetch();
    window.fetch = network.fetch as typeof fetch;
  });
  afterEach(() => {
    window.fetch = browserFetch;
  });

  it('starts one read per element already in the document, with the URL the element will use; bad attributes are skipped silently', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <voice-agent-widget agent-id="agent_a"></voice-agent-widget>
      <voice-agent-widget agent-id=" agent_b " server-url="https://other.test/prefix/"></voice-agent-widget>
      <voice-agent-widget agent-id="agent_a"></voice-agent-widget>
      <voice-agent-widget agent-id="agent_p" signed-url="wss://private.test/v1/voiceai/conversation?agent_id=agent_p&amp;conversation_signature=s1"></voice-agent-widget>
      <voice-agent-widget agent-id="agent_bad" server-url="ftp://nope.test"></voice-agent-widget>
      <voice-agent-widget agent-id="agent_bad" signed-url="not a url"></voice-agent-widget>
      <voice-agent-widget agent-id=""></voice-agent-widget>
      <voice-agent-widget signed-url="wss://private.test/v1/voiceai/conversation?agent_id=agent_q&amp;conversation_signature=s2"></voice-agent-widget>`;
    const started = prefetchDocumentWidgets(root, 'https://service.test');
    expect(started, 'the two elements of agent_a share one read').to.equal(4);
    expect(network.calls.map((call) => call.url)).to.deep.equal([
      'https://service.test/v1/convai/agents/agent_a/widget',
      'https://other.test/prefix/v1/convai/agents/agent_b/widget',
      'https://private.test/v1/convai/agents/agent_p/widget?conversation_signature=s1',
    ]);
    for (const call of network.calls) call.respond(200, { agent_id: 'x', widget_config: {} });
    const signal = new AbortController().signal;
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://service.test', agentId: 'agent_a', signature: '' }, signal)).to.be.instanceOf(Promise);
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://service.test', agentId: 'agent_a', signature: '' }, signal), 'taken once').to.equal(null);
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://other.test/prefix', agentId: 'agent_b', signature: '' }, signal)).to.be.instanceOf(Promise);
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://private.test', agentId: 'agent_p', signature: '' }, signal), 'the signature is part of the endpoint').to.equal(null);
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://private.test', agentId: 'agent_p', signature: 's1' }, signal)).to.be.instanceOf(Promise);
  });

  it('a prefetch nobody takes is harmless: a failure reaches no one (no unhandled rejection)', async () => {
    const rejections: unknown[] = [];
    const onRejection = (event: PromiseRejectionEvent): void => void rejections.push(event.reason);
    window.addEventListener('unhandledrejection', onRejection);
    try {
      prefetchWidgetConfig('https://service.test', 'agent_lost');
      network.last.respond(500, 'boom');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(rejections).to.deep.equal([]);
    } finally {
      window.removeEventListener('unhandledrejection', onRejection);
    }
  });

  it('an already aborted taker gets nothing and the request is aborted', () => {
    prefetchWidgetConfig('https://service.test', 'agent_gone');
    const abort = new AbortController();
    abort.abort();
    expect(takePrefetchedWidgetConfig({ serverUrl: 'https://service.test', agentId: 'agent_gone', signature: '' }, abort.signal)).to.equal(null);
    expect(network.last.signal.aborted).to.equal(true);
  });

  it('throws a TypeError for a server URL that is not http(s)', () => {
    expect(() => prefetchWidgetConfig('ftp://service.test', 'agent_a')).to.throw(TypeError, 'server-url must be http(s)');
  });
});

// README.md, "Using the client without the element": the example, run against the reference service. The code between
// the two README markers is the README's code block as it is (only the import path differs: the README imports the
// package, 'voice-agent-widget'); keep the two the same, so `npm run typecheck` and this test prove the README.
import { expect, fixture, html } from '@open-wc/testing';
import { apiKey, serviceUrl } from '/__service__.js';
// README: begin
import {
  ConversationError, ConversationSession, ServiceHttpError, ServiceNetworkError, ServiceResponseError,
  conversationSocketUrl, fetchWidgetConfig, postConversationFeedback, resolveWidgetConfig, type ValidationDetail,
} from '../../../src/index.js';

/** One exchange with an agent: says `text`, waits for the reply that `isReply` accepts, ends, rates the conversation. */
export async function talk(serverUrl: string, agentId: string, text: string, isReply: (reply: string) => boolean) {
  // The public configuration (ServiceHttpError 404 for an unknown agent), validated as the element does it.
  const config = resolveWidgetConfig((await fetchWidgetConfig(serverUrl, agentId)).widget_config, console.warn, location.href);
  if (!config.text_only && !config.supports_text_only) throw new Error(`${agentId} takes no text`);

  const session = new ConversationSession({
    url: conversationSocketUrl(serverUrl, agentId),
    initiation: { conversation_config_override: { conversation: { text_only: true } }, dynamic_variables: { customer_name: 'Ada' } },
  });
  const output = document.querySelector('output'); // where a reply streams in, as plain text
  session.addEventListener('agent_chat_response_part', (e) => {
    const { type, text: part = '' } = e.detail.text_response_part; // 'start', 'delta'…, 'stop', then agent_response
    if (type === 'start') output?.replaceChildren();
    if (type === 'delta') output?.append(part);
  });
  session.addEventListener('client_tool_call', (e) => {
    const call = e.detail.client_tool_call; // answer every call: the agent waits for it
    if (call.tool_name === 'get_page_time') session.sendClientToolResult(call.tool_call_id, new Date().toISOString(), false);
    else session.sendClientToolResult(call.tool_call_id, `unknown tool ${call.tool_name}`, true);
  });

  await session.start(); // resolves after the handshake (session.conversationId is set), else a ConversationError
  const reply = new Promise<string>((resolve, reject) => {
    session.addEventListener('agent_response', (e) => {
      const { agent_response, event_id } = e.detail.agent_response_event; // the whole text of one agent message
      if (!isReply(agent_response)) return; // e.g. the agent's first message
      session.sendFeedback('like', event_id); // a like on this message
      resolve(agent_response);
    });
    session.addEventListener('ended', (e) => {
      const { reason, code, error, unsent } = e.detail; // reason: 'user' (end()), 'agent' (closed with 1000), 'error'
      reject(error ?? new Error(`the conversation ended (${reason}, code ${code}); ${unsent.length} message(s) unsent`));
    });
  });
  session.sendUserMessage(text); // sent at once after the handshake (queued before it)
  const answer = await reply.finally(() => session.end()); // end(): closes with 1000; `ended` fires with reason 'user'
  const conversationId = session.conversationId!;
  await postConversationFeedback(serverUrl, conversationId, { rating: 5, comment: 'quick and right' });
  return { reply: answer, conversationId };
}

/** The client's typed errors, in words. */
export function explain(error: unknown): string {
  if (error instanceof ServiceHttpError) {
    // status: 404 unknown agent or conversation, 422 a bad request (detail: a list of {loc, msg, type}), …
    if (error.status === 422 && Array.isArray(error.detail)) {
      return (error.detail as ValidationDetail[]).map(({ loc, msg, type }) => `${loc.join('.')}: ${msg} (${type})`).join('; ');
    }
    return `HTTP ${error.status}: ${JSON.stringify(error.detail)}`;
  }
  if (error instanceof ServiceNetworkError) return error.timedOut ? `no answer in time from ${error.url}` : `cannot reach ${error.url}`;
  if (error instanceof ServiceResponseError) return `not the documented answer: ${error.message}`;
  if (error instanceof ConversationError) return `the conversation failed (close code ${error.code ?? 'none'}): ${error.message}`;
  return String(error);
}
// README: end

describe('README: using the client without the element', () => {
  it('talks to agent_minimal: "hello" gets the "You said" reply, the like and the rating reach the service', async () => {
    const output = await fixture<HTMLOutputElement>(html`<output></output>`); // where talk() streams the reply
    const { reply, conversationId } = await talk(serviceUrl, 'agent_minimal', 'hello', (text) => text.includes('You said'));
    expect(reply).to.contain('You said: **hello**');
    expect(output.textContent).to.equal(reply); // the streamed deltas, joined
    const record = await (await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } })).json();
    expect(record.metadata.termination_reason).to.equal('client_ended');
    expect(record.metadata.feedback).to.include({ likes: 1, rating: 5, comment: 'quick and right' });
  });

  it('explains each typed error', async () => {
    const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => expect.fail('expected a rejection'), (error: unknown) => error);

    const notFound = await failure(fetchWidgetConfig(serviceUrl, 'no_such_agent'));
    expect(notFound).to.be.instanceOf(ServiceHttpError);
    expect((notFound as ServiceHttpError).status).to.equal(404);
    expect(explain(notFound)).to.match(/^HTTP 404: /);

    const invalid = await failure(postConversationFeedback(serviceUrl, 'conv_unknown', { rating: 9 }));
    expect((invalid as ServiceHttpError).status).to.equal(422);
    expect(explain(invalid)).to.match(/^body\.rating: .+ \(\w+\)/);

    const unreachable = await failure(fetchWidgetConfig('http://127.0.0.1:9', 'agent_minimal'));
    expect(unreachable).to.be.instanceOf(ServiceNetworkError);
    expect(explain(unreachable)).to.equal('cannot reach http://127.0.0.1:9/v1/convai/agents/agent_minimal/widget');

    const silent = (_: string, init?: RequestInit) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    const timedOut = await failure(fetchWidgetConfig(serviceUrl, 'agent_minimal', { fetch: silent, timeoutMs: 50 }));
    expect((timedOut as ServiceNetworkError).timedOut).to.equal(true);
    expect(explain(timedOut)).to.match(/^no answer in time from /);

    const notJson = await failure(fetchWidgetConfig(serviceUrl, 'agent_minimal', { fetch: async () => new Response('<html>') }));
    expect(notJson).to.be.instanceOf(ServiceResponseError);
    expect(explain(notJson)).to.match(/^not the documented answer: .*the body is not JSON$/);

    const refused = await failure(new ConversationSession({ url: conversationSocketUrl(serviceUrl, 'no_such_agent') }).start());
    expect((refused as ConversationError).code).to.equal(4004);
    expect(explain(refused)).to.match(/^the conversation failed \(close code 4004\): /);
  });
});

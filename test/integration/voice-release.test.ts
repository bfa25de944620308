/**
 * Nothing left running after a voice call (DESIGN.md rule 4), however it ends: the visitor ends it, the agent ends it,
 * the socket fails (a fault switch of the reference service closes it), the element is removed while the agent
 * speaks; and one call per page. Every getUserMedia track must be `ended`, every AudioContext `closed`, every
 * WebSocket closed (counted by wrapping the browser's constructors, as test/audio/lifecycle.test.ts does).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { captureConsole, until } from '../helpers.js';
import { mountWidget, openPanel, sendText, serviceUrl } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import {
  LABEL, callAtThePrompt, closedRecord, createAgent, endCall, live, nextEnd, notices, openCall, part, service, setFaults, startCall,
  statusText, watchEachCall,
} from './voice-helpers.js';

describe('a voice call leaves nothing running', () => {
  const watch = watchEachCall();

  it('after end_call', async () => {
    const { el, id } = await openCall('agent_minimal');
    expect(await endCall(el)).to.include({ reason: 'user', code: 1000 });
    await watch.released();
    expect((await closedRecord(id)).metadata.termination_reason).to.equal('client_ended');
    expect(statusText(el)).to.equal('');
  });

  it('after end_call while the microphone is still being asked: the microphone granted later is stopped, no socket opens', async () => {
    const { el, grant } = await callAtThePrompt(watch);
    part(el, 'end-button')!.click();
    await el.updateComplete;
    expect(part(el, 'start-call-button')!.textContent!.trim()).to.equal(LABEL.startCall);
    grant();
    await until(() => watch.streams.length === 1, 'the microphone granted');
    await watch.released();
    expect(watch.sockets).to.deep.equal([]);
    // The AudioContext opened in the press is closed with the rest (watch.released above).
    expect(watch.contexts.map((c) => c.state)).to.deep.equal(['closed']);
  });

  it('after the agent ends the conversation ("bye" typed in text mode)', async function () {
    this.timeout(20000);
    const { el, id } = await openCall(await createAgent({ widget: { conversation_mode_toggle_enabled: true } }));
    part(el, 'mode-button')!.click();
    await el.updateComplete;
    const ended = nextEnd(el);
    await sendText(el, 'bye');
    // The service closes with 1000 once its goodbye has been spoken (at real time).
    expect(await ended).to.include({ reason: 'agent', code: 1000 });
    await watch.released();
    expect((await closedRecord(id)).metadata.termination_reason).to.equal('agent_ended');
    await el.updateComplete;
    expect(notices(el)).to.deep.equal([LABEL.switchedToText, LABEL.agentEnded]);
    expect(statusText(el)).to.equal('');
  });

  // The fault comes once the call is live (Firefox's takes about 2 s to get there: its output opens in about a second).
  it('after an error (the service closes the socket with 1011): told, not stuck in listening', async function () {
    this.timeout(20000);
    const agentId = await createAgent();
    await setFaults({ socket: { agent_id: agentId, close_after_ms: 4000, code: 1011, reason: 'injected fault' } });
    try {
      const el = await mountWidget(agentId);
      await openPanel(el);
      const { errors, result: end } = await captureConsole(async () => {
        const ended = nextEnd(el);
        await startCall(el);
        return ended;
      });
      expect(end).to.include({ reason: 'error', code: 1011 });
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include('1011').and.include('injected fault');
      await watch.released();
      await el.updateComplete;
      expect(notices(el)).to.deep.equal([LABEL.error]);
      expect(statusText(el)).to.equal('');
      expect(part(el, 'start-call-button')!.textContent!.trim()).to.equal(LABEL.newCall);
    } finally {
      await service('DELETE', '/v1/dev/faults');
    }
  });

  it('after the element is removed while the agent speaks', async function () {
    this.timeout(20000);
    const { el, id } = await openCall('agent_minimal');
    await until(() => statusText(el) === LABEL.speaking, 'the agent speaks', 15000);
    el.remove();
    await watch.released();
    expect((await closedRecord(id)).metadata.termination_reason).to.equal('client_ended');
  });

  it('two widgets on a page: a call in the second ends the first one\'s; one live microphone track remains', async function () {
    this.timeout(20000);
    // Two widgets in one fixture on purpose: what is tested is how two calls on one page meet.
    const pair = await fixture<HTMLElement>(html`<div>
      <voice-agent-widget agent-id="agent_minimal" server-url=${serviceUrl}></voice-agent-widget>
      <voice-agent-widget agent-id="agent_minimal" server-url=${serviceUrl}></voice-agent-widget>
    </div>`);
    const [first, second] = [...pair.querySelectorAll<VoiceAgentWidget>('voice-agent-widget')];
    for (const el of [first, second]) {
      await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled])'), 'ready');
      await openPanel(el);
    }
    await startCall(first);
    const firstEnded = nextEnd(first);
    await startCall(second);
    expect(await firstEnded).to.include({ reason: 'user' });
    await until(() => watch.contexts[0].state === 'closed', 'the first call\'s AudioContext closed');
    expect(watch.sockets[0].readyState).to.be.oneOf([WebSocket.CLOSING, WebSocket.CLOSED]);
    expect(watch.tracks().filter((t) => t.readyState === 'live')).to.deep.equal([watch.streams[1].getAudioTracks()[0]]);
    expect(live(first)).to.equal(false);
    expect(live(second)).to.equal(true);
  });
});

/**
 * Voice calls through the element (PROTOCOL.md section 3, "Voice") against the reference service, which speaks
 * (espeak-ng) and listens (energy VAD), with Chromium's fake microphone playing test/fixtures/speech.wav.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { until } from '../helpers.js';
import { $, mountWidget, openPanel } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

const status = (el: VoiceAgentWidget): string => $(el, '[part~="status"]')!.textContent!.trim();

describe('a voice call', () => {
  it('asks for the microphone, streams it, plays the agent, shows listening / speaking, and ends releasing all', async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const call = $<HTMLButtonElement>(el, '[part~="start-call-button"]')!;
    expect(call.textContent!.trim()).to.equal('Start a call');
    const started = oneEvent(el, 'voice-agent-conversation');
    call.click();
    await started;
    await until(() => status(el) === 'Talk to interrupt' || status(el) === 'Listening', 'a voice status', 8000);
    await until(() => status(el) === 'Talk to interrupt', 'the agent speaks its first message', 8000);
    await until(() => status(el) === 'Listening', 'back to listening', 15000);
    const ended = oneEvent(el, 'voice-agent-conversation-end');
    $<HTMLButtonElement>(el, '[part~="end-button"]')!.click();
    await ended;
    expect($(el, '[part~="start-call-button"]')!.textContent!.trim()).to.equal('New call');
  });
});

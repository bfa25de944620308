import { expect } from '@open-wc/testing';
import type { SessionStatus } from '../../../src/client/session.js';
import { resolveWidgetConfig } from '../../../src/config/index.js';
import type { VoiceState } from '../../../src/widget/controllers/voice.js';
import { panelFlags, statusLabel } from '../../../src/widget/panel-flags.js';

const config = (raw: Record<string, unknown> = {}) => resolveWidgetConfig(raw, () => {}, location.href);
const conversation = (status: SessionStatus = 'idle') => ({ status, active: status === 'connecting' || status === 'connected' });
const voice = (state: VoiceState = 'off', textMode = false, turn: 'listening' | 'speaking' = 'listening', muted = false) => ({ state, textMode, turn, muted });

describe('panelFlags', () => {
  it('what the agent takes: voice and text, text only, voice only; the default mode follows', () => {
    const both = panelFlags(config({ supports_text_only: true }), conversation(), voice());
    expect([both.voiceAllowed, both.textAllowed, both.defaultMode]).to.deep.equal([true, true, 'text']);
    const textOnly = panelFlags(config({ text_only: true }), conversation(), voice());
    expect([textOnly.voiceAllowed, textOnly.textAllowed, textOnly.defaultMode]).to.deep.equal([false, true, 'text']);
    const voiceOnly = panelFlags(config({ supports_text_only: false }), conversation(), voice());
    expect([voiceOnly.voiceAllowed, voiceOnly.textAllowed, voiceOnly.defaultMode]).to.deep.equal([true, false, 'voice']);
  });

  it('the composer: offered where text is taken, or during a call; never without text_input_enabled', () => {
    expect(panelFlags(config({ supports_text_only: false }), conversation(), voice()).composer, 'voice only, no call').to.equal(false);
    expect(panelFlags(config({ supports_text_only: false }), conversation('connected'), voice('on')).composer, 'voice only, in a call').to.equal(true);
    expect(panelFlags(config({ text_only: true }), conversation(), voice()).composer).to.equal(true);
    expect(panelFlags(config({ text_only: true, text_input_enabled: false }), conversation(), voice()).composer).to.equal(false);
  });

  it('the placeholder: a new conversation after one ended, text only, else the usual', () => {
    expect(panelFlags(config({ supports_text_only: true }), conversation(), voice()).placeholder).to.equal('input_placeholder');
    expect(panelFlags(config({ text_only: true }), conversation(), voice()).placeholder).to.equal('input_placeholder_text_only');
    expect(panelFlags(config({ text_only: true }), conversation('ended'), voice()).placeholder).to.equal('input_placeholder_new_conversation');
  });

  it('active and call: a conversation starting or running, or a call asking for the microphone', () => {
    expect(panelFlags(config(), conversation(), voice()).active).to.equal(false);
    expect(panelFlags(config(), conversation('connecting'), voice()).active).to.equal(true);
    const asking = panelFlags(config(), conversation(), voice('starting'));
    expect([asking.active, asking.call, asking.status]).to.deep.equal([true, true, 'connecting_status']);
    const ended = panelFlags(config(), conversation('ended'), voice());
    expect([ended.active, ended.ended, ended.status]).to.deep.equal([false, true, null]);
  });

  it('always_expanded and the orb (a call without the transcript)', () => {
    expect(panelFlags(config({ always_expanded: true }), conversation(), voice()).alwaysExpanded).to.equal(true);
    expect(panelFlags(config(), conversation(), voice()).alwaysExpanded).to.equal(false);
    expect(panelFlags(config({ transcript_enabled: false }), conversation('connected'), voice('on')).orb).to.equal(true);
    expect(panelFlags(config({ transcript_enabled: false }), conversation('connected'), voice()).orb).to.equal(false);
    expect(panelFlags(config({ transcript_enabled: true }), conversation('connected'), voice('on')).orb).to.equal(false);
  });

  it('the status line: the call\'s turn while in voice, chatting when switched to text or in a text conversation', () => {
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'speaking')).status).to.equal('speaking_status');
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'listening')).status).to.equal('listening_status');
    expect(panelFlags(config(), conversation('connected'), voice('on', true, 'speaking')).status).to.equal('chatting_status');
    expect(panelFlags(config(), conversation('connected'), voice()).status).to.equal('chatting_status');
    expect(statusLabel('idle', null, false)).to.equal(null);
  });

  it('the status line says the microphone is muted while the visitor listens muted; the agent speaking still says so', () => {
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'listening', true)).status).to.equal('microphone_muted');
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'speaking', true)).status).to.equal('speaking_status');
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'listening', false)).status).to.equal('listening_status');
    expect(panelFlags(config(), conversation('connected'), voice('on', true, 'listening', true)).status, 'switched to text').to.equal('chatting_status');
  });

  it('the status line says connecting until the call\'s audio runs, also once the conversation is connected', () => {
    expect(panelFlags(config(), conversation('connecting'), voice('starting')).status).to.equal('connecting_status');
    expect(panelFlags(config(), conversation('connected'), voice('starting', false, 'listening')).status).to.equal('connecting_status');
    expect(panelFlags(config(), conversation('connected'), voice('on', false, 'listening')).status).to.equal('listening_status');
    expect(statusLabel('connected', 'listening', true, true)).to.equal('connecting_status');
    expect(statusLabel('connected', 'listening', true, false)).to.equal('listening_status');
  });
});

/**
 * Issue 3 in the element: attribute overrides (also changed on a live element), terms before the first conversation,
 * languages, expand and dismiss — against the reference service's fixture agents over real HTTP and WebSocket.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { captureConsole, typeText, until } from '../helpers.js';
import { $, $$, FULL_TERMS_KEY, button, messages, mountWidget, openPanel, sendText } from '../widget-helpers.js';
import type { VoiceAgentConversationEvent } from '../../src/events/index.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

const root = (el: VoiceAgentWidget): HTMLElement => $(el, '[part~="root"]')!;
const panel = (el: VoiceAgentWidget): HTMLElement => $(el, '[part~="panel"]')!;
const dialog = (el: VoiceAgentWidget): HTMLDialogElement | null => $<HTMLDialogElement>(el, 'dialog[part~="terms"]');

describe('override attributes', () => {
  it('variant and placement attributes win over the configuration, also when changed on a live element', async () => {
    const el = await mountWidget('agent_demo_support', { variant: 'tiny', placement: 'top-left' });
    expect(root(el).classList.contains('tiny')).to.equal(true);
    expect($(el, '.launcher')!.getAttribute('aria-label')).to.equal('Need help?');
    const box = $(el, '.launcher')!.getBoundingClientRect();
    expect(box.left).to.be.closeTo(24, 1);
    expect(box.top).to.be.closeTo(24, 1);
    el.setAttribute('variant', 'compact');
    el.setAttribute('placement', 'bottom-right');
    await el.updateComplete;
    expect(root(el).classList.contains('compact')).to.equal(true);
    expect($(el, '.launcher')!.hasAttribute('aria-label')).to.equal(false);
    expect(innerWidth - $(el, '.launcher')!.getBoundingClientRect().right).to.be.closeTo(24, 1);
  });

  it('boolean attributes read true / false / present, and a bad value is reported and ignored', async () => {
    const { result: el, warnings } = await captureConsole(() => mountWidget('agent_minimal', { 'always-expanded': '', transcript: 'false', 'text-input': 'maybe' }));
    expect($(el, '[part~="panel"]'), 'always expanded').to.exist;
    expect($(el, '.launcher'), 'no launcher when always expanded').to.equal(null);
    expect(button(el, 'Collapse')).to.equal(undefined);
    expect($(el, 'input'), 'text-input=maybe ignored: the configuration (on) stays').to.exist;
    expect(warnings.some((w) => w.includes('text-input') && w.includes('maybe'))).to.equal(true);
    await sendText(el, 'one');
    await until(() => $$(el, '.message.agent').some((m) => m.textContent!.includes('You said: one')), 'reply');
    expect($$(el, '.message.user'), 'transcript=false: only the latest agent line').to.have.length(0);
    expect($$(el, '.message.agent')).to.have.length(1);
  });

  it('sends the conversation overrides and user-id in the initiation', async () => {
    const el = await mountWidget('agent_minimal', {
      'override-first-message': 'Custom {{who}} greeting',
      'override-language': 'de',
      'override-prompt': 'Be brief.',
      'override-voice-id': 'voice_42',
      'user-id': 'visitor-7',
      'dynamic-variables': '{"who":"Ada"}',
    });
    await openPanel(el);
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    button(el, 'Start a chat')!.click();
    const { conversationId } = (await started).detail;
    await until(() => $$(el, '.message.agent:not(.greeting)').some((m) => m.textContent!.trim() === 'Custom Ada greeting'), 'the overridden first message, filled in, from the service');
    const { apiKey, serviceUrl } = await import('/__service__.js');
    const record = await (await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } })).json();
    expect(record.user_id).to.equal('visitor-7');
    expect(record.conversation_initiation_client_data.conversation_config_override).to.deep.equal({
      conversation: { text_only: true },
      agent: { language: 'de', first_message: 'Custom {{who}} greeting', prompt: { prompt: 'Be brief.' } },
      tts: { voice_id: 'voice_42' },
    });
  });

  it('avatar attributes: orb colours and a picture; a javascript: picture is refused', async () => {
    const el = await mountWidget('agent_minimal', { 'avatar-orb-color-1': 'rgb(1, 2, 3)' });
    expect(getComputedStyle(el).getPropertyValue('--_orb-color-1')).to.contain('rgb(1, 2, 3)');
    el.setAttribute('avatar-image-url', '/demo/avatar.png');
    await el.updateComplete;
    expect($<HTMLImageElement>(el, 'img[part~="avatar"]')?.src).to.equal(new URL('/demo/avatar.png', location.href).href);
    const { warnings } = await captureConsole(async () => {
      el.setAttribute('avatar-image-url', 'javascript:alert(1)');
      await el.updateComplete;
    });
    expect($(el, 'img[part~="avatar"]')).to.equal(null);
    expect(warnings.some((w) => w.includes('custom_avatar_path'))).to.equal(true);
  });
});

describe('terms', () => {
  afterEach(() => localStorage.removeItem(FULL_TERMS_KEY));

  it('asks before the first conversation in an accessible dialog; declining starts nothing and keeps the typed text', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    $<HTMLInputElement>(el, 'input')!.focus();
    await typeText('hello there');
    await sendKeys({ press: 'Enter' });
    await until(() => dialog(el)?.open, 'terms dialog open');
    const terms = dialog(el)!;
    expect(terms.querySelector('strong')!.textContent).to.equal('recorded');
    expect(terms.querySelector('a')!.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(terms.querySelector('a')!.href).to.equal('https://acme.example/terms');
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await until(() => !dialog(el), 'closed on Escape');
    expect(button(el, 'End'), 'no conversation started').to.equal(undefined);
    expect($<HTMLInputElement>(el, 'input')!.value).to.equal('hello there');
    expect(localStorage.getItem(FULL_TERMS_KEY)).to.equal(null);
  });

  it('shows the terms again, whole, after a decline', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      button(el, 'Message')!.click();
      await until(() => dialog(el)?.open, `terms dialog open (attempt ${attempt + 1})`);
      expect(dialog(el)!.querySelector('.terms-text')!.textContent).to.contain('recorded');
      button(el, 'Cancel')!.click();
      await until(() => !dialog(el), 'closed');
    }
  });

  it('accepting remembers the choice under terms_key and sends the waiting message', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    await sendText(el, 'after terms');
    await until(() => dialog(el)?.open, 'terms dialog open');
    button(el, 'Accept')!.click();
    await until(() => messages(el).some((m) => m.text.includes('You said: after terms')), 'the waiting message went out');
    expect(localStorage.getItem(FULL_TERMS_KEY)).to.equal('accepted');
  });

  it('does not ask a returning visitor (terms_key accepted) again', async () => {
    // Without askTerms, mountWidget stores FULL_TERMS_KEY as 'accepted': what the test above leaves behind.
    const again = await mountWidget('agent_demo_support', {}, false);
    await openPanel(again);
    button(again, 'Message')!.click();
    await until(() => button(again, 'End'), 'a returning visitor is not asked again');
    expect(dialog(again)).to.equal(null);
  });
});

describe('languages', () => {
  it('offers the supported languages, in their own names, and switches labels, greeting and direction', async () => {
    const el = await mountWidget('agent_demo_support', { language: 'en' });
    await openPanel(el);
    const select = $<HTMLSelectElement>(el, 'select[part~="language-select"]')!;
    expect(select.getAttribute('aria-label')).to.equal('Change language');
    expect([...select.options].map((o) => o.value)).to.deep.equal(['en', 'de', 'fr', 'ar']);
    expect([...select.options].map((o) => o.textContent)).to.include.members(['English', 'Deutsch', 'français', 'العربية']);
    select.value = 'ar';
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(panel(el).dir).to.equal('rtl');
    expect(root(el).lang).to.equal('ar');
    expect(button(el, 'إغلاق') ?? button(el, 'Collapse'), 'labels not in the preset stay from text_contents').to.exist;
    expect(messages(el)[0]!.text).to.equal('مرحبًا! أنا مساعد Acme. كيف يمكنني المساعدة؟');
    select.value = 'de';
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(panel(el).dir).to.equal('ltr');
    expect($<HTMLInputElement>(el, 'input')!.placeholder).to.equal('Nachricht senden ...');
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    button(el, 'Message')!.click();
    const { conversationId } = (await started).detail;
    await until(() => $$(el, '.message.agent:not(.greeting)').some((m) => m.textContent!.trim().startsWith('Hallo!')), 'German first message from the service');
    const { apiKey, serviceUrl } = await import('/__service__.js');
    const record = await (await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } })).json();
    expect(record.conversation_initiation_client_data.conversation_config_override.agent.language).to.equal('de');
    expect(record.metadata.main_language).to.equal('de');
  });
});

describe('languages from attributes', () => {
  it('follows a language attribute changed on a live element, and the preset first message goes to the service', async () => {
    const el = await mountWidget('agent_demo_support', { language: 'en' });
    el.setAttribute('language', 'fr');
    await el.updateComplete;
    expect($(el, '.launcher')!.textContent!.trim()).to.equal("Besoin d'aide ?");
    await openPanel(el);
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    button(el, 'Message')!.click();
    const { conversationId } = (await started).detail;
    const { apiKey, serviceUrl } = await import('/__service__.js');
    const record = await (await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } })).json();
    expect(record.conversation_initiation_client_data.conversation_config_override.agent).to.deep.equal({
      language: 'fr',
      first_message: "Bonjour ! Je suis l'assistant Acme. Comment puis-je aider ?",
    });
  });
});

describe('no attributes at all', () => {
  it('shows the error state and says the agent-id is missing', async () => {
    const { result: el, errors } = await captureConsole(() => fixture<VoiceAgentWidget>(html`<voice-agent-widget></voice-agent-widget>`));
    expect($(el, '[part~="error"]')).to.exist;
    expect(errors.some((e) => e.includes('agent-id attribute is missing'))).to.equal(true);
  });
});

describe('expand, dismiss, conversation id', () => {
  it('expands the panel (expandable: always) and dismisses the widget until reload', async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const before = $(el, '[part~="panel"]')!.getBoundingClientRect().width;
    const expand = button(el, 'Expand')!;
    expect(expand.getAttribute('aria-pressed')).to.equal('false');
    expand.click();
    await el.updateComplete;
    expect(expand.getAttribute('aria-pressed')).to.equal('true');
    expect($(el, '[part~="panel"]')!.getBoundingClientRect().width).to.be.greaterThan(before);
    await expect(el).to.be.accessible();
    button(el, 'Collapse')!.click();
    await el.updateComplete;
    expect(button(el, 'Cancel'), 'the dismiss button is not named like the terms decline button').to.equal(undefined);
    const dismiss = button(el, 'Dismiss')!;
    expect(dismiss.getAttribute('part')).to.contain('dismiss-button');
    dismiss.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="root"]')).to.equal(null);
  });

  it('shows the conversation id with a copy button once a conversation has started', async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    button(el, 'Message')!.click();
    const { conversationId } = (await started).detail;
    await until(() => $(el, '[part~="conversation-id"]'), 'id shown');
    expect($(el, '[part~="conversation-id"] code')!.textContent).to.equal(conversationId);
    expect($(el, '[part~="conversation-id"]')!.textContent).to.contain('ID:');
    expect(button(el, 'Copy ID')).to.exist;
    await expect(el).to.be.accessible();
  });
});

describe('axe in every variant and layout', () => {
  for (const [name, attributes] of [
    ['tiny closed', { variant: 'tiny' }],
    ['full, right to left', { variant: 'full', language: 'ar' }],
    ['always expanded, top', { 'always-expanded': '', placement: 'top' }],
    ['dismissible text-only agent', { dismissible: '' }],
  ] as const) {
    it(`passes axe: ${name}, closed and open`, async () => {
      const el = await mountWidget(name.startsWith('dismissible') ? 'agent_text_only' : 'agent_demo_support', attributes);
      await expect(el).to.be.accessible();
      if ($(el, '.launcher')) {
        await openPanel(el);
        await expect(el).to.be.accessible();
      }
    });
  }
});

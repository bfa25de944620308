/**
 * Feedback (PROTOCOL.md section 4) through the widget's own controls, read back from the reference service's
 * conversation record: like / dislike during the conversation, and the end-of-call rating with its comment.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { apiKey, serviceUrl } from '/__service__.js';
import { pressKey, until } from '../helpers.js';
import { $, $$, button, mountWidget, openPanel, sendText } from '../widget-helpers.js';
import type { VoiceAgentConversationEvent } from '../../src/events/index.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

async function record(conversationId: string): Promise<any> {
  return (await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } })).json();
}

async function startedConversation(el: VoiceAgentWidget, text: string, reply: string): Promise<string> {
  const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
  await openPanel(el);
  await sendText(el, text);
  const { conversationId } = (await started).detail;
  await until(() => $$(el, '.message.agent[aria-busy="false"]').some((m) => m.textContent!.includes(reply)), 'reply');
  return conversationId;
}

describe('feedback during the conversation (feedback_mode: during)', () => {
  it('likes one agent message once, shows the choice, and the service counts it', async () => {
    const el = await mountWidget('agent_text_only');
    const id = await startedConversation(el, 'hello', 'You said: hello');
    const reply = $$(el, '.message.agent').find((m) => m.textContent!.includes('You said: hello'))!;
    const rating = reply.nextElementSibling!;
    expect(rating.getAttribute('part'), 'the rating right after the reply').to.equal('rating');
    const [like, dislike] = [...rating.querySelectorAll<HTMLButtonElement>('button')];
    expect(like!.getAttribute('aria-pressed')).to.equal('false');
    await expect(el).to.be.accessible();
    like!.click();
    await el.updateComplete;
    expect(like!.getAttribute('aria-pressed')).to.equal('true');
    expect(like!.disabled && dislike!.disabled, 'sent once: both buttons done').to.equal(true);
    dislike!.click();
    await until(async () => (await record(id)).metadata.feedback.likes === 1, 'the like reached the record');
    expect((await record(id)).metadata.feedback.dislikes).to.equal(0);
  });
});

/** The shadow root's focused element. */
const focused = (el: VoiceAgentWidget): Element | null => el.shadowRoot!.activeElement;

describe('feedback at the end (feedback_mode: end, end_feedback: rating)', () => {
  it('asks in a modal dialog: stars named from the labels, then a comment, posts both and thanks; focus moves in, follows each step and comes back', async () => {
    const el = await mountWidget('agent_demo_support');
    const id = await startedConversation(el, 'hello', 'You said: hello');
    expect($(el, '[part~="feedback"]'), 'not asked during the call').to.equal(null);
    button(el, 'End')!.click();
    await until(() => ($(el, '[part~="feedback"]') as HTMLDialogElement | null)?.open, 'feedback dialog');
    const sheet = $<HTMLDialogElement>(el, '[part~="feedback"]')!;
    expect(sheet.localName).to.equal('dialog');
    expect(sheet.matches(':modal'), 'modal: the page and the panel behind are inert').to.equal(true);
    expect(sheet.getAttribute('aria-label')).to.equal('How was this conversation?');
    expect(sheet.textContent).to.contain('How was this conversation?');
    expect(focused(el), 'focus moved into the dialog, on the first star').to.equal(button(el, '1 out of 5 stars'));
    await expect(el).to.be.accessible();
    button(el, '2 out of 5 stars')!.click();
    await until(() => sheet.textContent!.includes('Tell us more'), 'the comment step');
    expect(focused(el), 'focus on the comment').to.equal($(el, '[part~="feedback"] textarea'));
    button(el, 'Go back')!.click();
    await until(() => button(el, '2 out of 5 stars'), 'the stars again');
    await el.updateComplete;
    expect(focused(el), 'back on the star chosen before').to.equal(button(el, '2 out of 5 stars'));
    expect(button(el, '2 out of 5 stars')!.getAttribute('aria-pressed')).to.equal('true');
    button(el, '4 out of 5 stars')!.click();
    await until(() => $(el, '[part~="feedback"] textarea'), 'the comment step');
    const comment = $<HTMLTextAreaElement>(el, '[part~="feedback"] textarea')!;
    expect(comment.placeholder).to.equal('Tell us more about your experience...');
    await expect(el).to.be.accessible();
    comment.value = 'Quick and clear.';
    button(el, 'Submit')!.click();
    await until(() => $(el, '[part~="feedback"]')?.textContent?.includes('Thank you for your feedback!'), 'thanks');
    expect($(el, '[part~="feedback"]')!.textContent).to.contain('Your feedback helps us improve.');
    expect(sheet.contains(focused(el)), 'focus still in the dialog').to.equal(true);
    await expect(el).to.be.accessible();
    const saved = await record(id);
    expect(saved.metadata.feedback.rating).to.equal(4);
    expect(saved.metadata.feedback.comment).to.equal('Quick and clear.');
    $<HTMLButtonElement>(el, '[part~="close-feedback-button"]')!.click();
    await until(() => !$(el, '[part~="feedback"]'), 'closed');
    await el.updateComplete;
    expect(focused(el), 'focus back in the panel: its first control').to.equal($(el, '[part~="input"]'));
  });

  it('Escape closes it (not the panel) and gives focus back; it is not asked again for that conversation, nor while a new one runs', async () => {
    const el = await mountWidget('agent_demo_support');
    await startedConversation(el, 'hello', 'You said: hello');
    button(el, 'End')!.click();
    await until(() => ($(el, '[part~="feedback"]') as HTMLDialogElement | null)?.open, 'feedback dialog');
    await until(() => focused(el) === button(el, '1 out of 5 stars'), 'focus in the dialog');
    await pressKey('Escape');
    await until(() => !$(el, '[part~="feedback"]'), 'closed by Escape');
    await el.updateComplete;
    expect($(el, '[part~="panel"]'), 'the panel stays open').to.exist;
    expect(focused(el), 'focus on the panel\'s first control').to.equal($(el, '[part~="input"]'));
    await sendText(el, 'again');
    await until(() => $$(el, '.message.agent[aria-busy="false"]').some((m) => m.textContent!.includes('You said: again')), 'the new conversation answers');
    expect($(el, '[part~="feedback"]'), 'not asked while the new conversation runs').to.equal(null);
  });
});

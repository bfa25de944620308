/**
 * Feedback (PROTOCOL.md section 4) through the widget's own controls, read back from the reference service's
 * conversation record: like / dislike during the conversation, and the end-of-call rating with its comment.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { apiKey, serviceUrl } from '/__service__.js';
import { until } from '../helpers.js';
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

describe('feedback at the end (feedback_mode: end, end_feedback: rating)', () => {
  it('asks for stars, then a comment, posts both and thanks; the record holds them', async () => {
    const el = await mountWidget('agent_demo_support');
    const id = await startedConversation(el, 'hello', 'You said: hello');
    expect($(el, '[part~="feedback"]'), 'not asked during the call').to.equal(null);
    button(el, 'End')!.click();
    await until(() => $(el, '[part~="feedback"]'), 'feedback sheet');
    const sheet = $(el, '[part~="feedback"]')!;
    expect(sheet.getAttribute('aria-label')).to.equal('How was this conversation?');
    expect(sheet.textContent).to.contain('How was this conversation?');
    await expect(el).to.be.accessible();
    button(el, '2/5')!.click();
    await el.updateComplete;
    expect($(el, '[part~="feedback"]')!.textContent).to.contain('Tell us more');
    button(el, 'Go back')!.click();
    await el.updateComplete;
    button(el, '4/5')!.click();
    await el.updateComplete;
    const comment = $<HTMLTextAreaElement>(el, '[part~="feedback"] textarea')!;
    expect(comment.placeholder).to.equal('Tell us more about your experience...');
    await expect(el).to.be.accessible();
    comment.value = 'Quick and clear.';
    button(el, 'Submit')!.click();
    await until(() => $(el, '[part~="feedback"]')?.textContent?.includes('Thank you for your feedback!'), 'thanks');
    expect($(el, '[part~="feedback"]')!.textContent).to.contain('Your feedback helps us improve.');
    await expect(el).to.be.accessible();
    const saved = await record(id);
    expect(saved.metadata.feedback.rating).to.equal(4);
    expect(saved.metadata.feedback.comment).to.equal('Quick and clear.');
  });

  it('asks once per conversation and goes away when a new conversation starts', async () => {
    const el = await mountWidget('agent_demo_support');
    await startedConversation(el, 'hello', 'You said: hello');
    button(el, 'End')!.click();
    await until(() => $(el, '[part~="feedback"]'), 'feedback sheet');
    await sendText(el, 'again');
    await until(() => !$(el, '[part~="feedback"]'), 'sheet gone in the new conversation');
  });
});

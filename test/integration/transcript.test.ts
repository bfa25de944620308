/**
 * The real element's transcript in a text conversation with the reference service over a real socket, with frames
 * handed to the widget's own socket as the service sends them (`inject`): a streamed delta changes the streaming
 * message and nothing else, and in it only the block that grew (issue 11 item 5). Its cost is measured by
 * `npm run bench:transcript`, never here.
 */
import { expect } from '@open-wc/testing';
import { Lexer } from 'marked';
import { mutatedNodes, until } from '../helpers.js';
import { $, $$, mountWidget, openPanel } from '../widget-helpers.js';
import { watchEachCall } from './voice-helpers.js';

/** Resolves after the next frame has been rendered (the transcript follows its end then). */
const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

const part = (text: string, type: 'start' | 'delta' | 'stop', eventId: number) => ({
  type: 'agent_chat_response_part', text_response_part: { text, type, event_id: eventId },
});

describe('the transcript of the real element', () => {
  const watch = watchEachCall();

  // First in the file: the pipeline is readied once per page.
  it('the panel showing readies the markdown pipeline at idle (a short reply streamed through it), once per page', async () => {
    const lexed: string[] = [];
    const lex = Lexer.lex;
    Lexer.lex = ((src, options) => (lexed.push(src), lex(src, options))) as typeof Lexer.lex;
    try {
      const el = await mountWidget('agent_minimal');
      const sample = (src: string) => src.startsWith('I *found*');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lexed.filter(sample), 'before the panel shows').to.deep.equal([]);
      await openPanel(el);
      await until(() => lexed.some(sample), 'the pipeline readied', 2000);
      const readied = lexed.filter(sample).length;
      expect(readied, 'streamed: its growing text lexed step by step').to.be.greaterThan(3);
      await el.startConversation({ mode: 'text' });
      await until(() => $(el, '.message.agent:not(.greeting)[aria-busy="false"]'), "the service's first message");
      el.endConversation();
      await el.startConversation({ mode: 'text' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lexed.filter(sample), 'readied once per page').to.have.length(readied);
    } finally {
      Lexer.lex = lex;
    }
  });

  it("draws out of sight the text styles replies use, hidden from assistive technology (their font faces load with the panel)", async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    const faces = $(el, '.transcript .faces')!;
    expect(faces.getAttribute('aria-hidden')).to.equal('true');
    expect(Array.from(faces.children, (child) => child.localName)).to.deep.equal(['em', 'strong', 'strong', 'code']);
    const box = faces.getBoundingClientRect();
    expect(box.width * box.height, 'at most 1 px').to.be.at.most(1);
    expect(getComputedStyle(faces).clipPath).to.equal('inset(50%)');
    // Laid out all the same: the browser has shaped its text (its inline boxes have a size).
    expect(faces.querySelector('em')!.getBoundingClientRect().height).to.be.greaterThan(0);
  });

  it("shows the service's first message in the greeting's bubble when it says what the greeting said", async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    const greeting = $(el, '.message.greeting')!;
    const text = greeting.textContent!.trim();
    expect(text, 'a greeting is shown').to.not.equal('');
    await el.startConversation({ mode: 'text' });
    await until(() => $(el, '.message.agent:not(.greeting)[aria-busy="false"]'), "the service's first message");
    expect($(el, '.block > .message.agent'), "the greeting's bubble").to.equal(greeting);
    expect(greeting.textContent!.trim()).to.equal(text);
    expect($$(el, '.message.agent'), 'no other agent line').to.have.length(1);
  });

  it('changes only the streaming message on a delta, and in it only the block that grew', async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    await el.startConversation({ mode: 'text' });
    await until(() => $(el, '.message.agent:not(.greeting)[aria-busy="false"]'), "the service's first message");
    for (let i = 0; i < 40; i++) {
      watch.inject({ type: 'user_transcript', user_transcription_event: { user_transcript: `question ${i}`, event_id: 100 + i } });
      watch.inject({ type: 'agent_response', agent_response_event: { agent_response: `Answer **${i}**, see [docs](https://example.com).\n\n- one\n- two`, event_id: 100 + i } });
    }
    watch.inject(part('', 'start', 500));
    watch.inject(part('The intro paragraph.\n\nThe second', 'delta', 500));
    // Deltas are drawn together within STREAM_DRAW_MS.
    await until(() => $$(el, '.lines .message').at(-1)?.querySelectorAll('p').length === 2, 'the delta drawn', 1000);
    const lines = $$(el, '.lines .message');
    expect(lines).to.have.length(1 + 80 + 1);
    // Blocks out of view may skip their rendering; the last one, where new lines go and which the transcript follows,
    // is always rendered (no display lock to take and track as a line starts it).
    const blocks = $$(el, '.lines > .block');
    expect(blocks.length, 'lines in blocks of 32').to.equal(3);
    if (CSS.supports('content-visibility', 'auto')) {
      expect(blocks.map((block) => getComputedStyle(block).getPropertyValue('content-visibility'))).to.deep.equal(['auto', 'auto', 'visible']);
    }
    const streaming = lines.at(-1)!;
    expect(streaming.getAttribute('aria-busy')).to.equal('true');
    const intro = streaming.querySelector('p')!;

    const changed = await mutatedNodes($(el, '.lines')!, () => {
      watch.inject(part(' one grows', 'delta', 500));
      return until(() => streaming.querySelectorAll('p')[1]?.textContent === 'The second one grows', 'the delta drawn', 1000);
    });
    expect(streaming.querySelectorAll('p')[1]!.textContent).to.equal('The second one grows');
    expect(changed.length, 'the delta changed the DOM').to.be.greaterThan(0);
    expect(changed.filter((node) => !streaming.contains(node)), 'nodes changed outside the streaming message').to.deep.equal([]);
    expect(streaming.querySelector('p'), 'the finished first paragraph kept its node').to.equal(intro);
    expect($$(el, '.lines .message'), 'every message kept its element').to.deep.equal(lines);

    // The reply ends as the whole text: nothing is rendered again, the transcript shows its end.
    watch.inject(part('', 'stop', 500));
    watch.inject({ type: 'agent_response', agent_response_event: { agent_response: 'The intro paragraph.\n\nThe second one grows', event_id: 500 } });
    await el.updateComplete;
    expect(streaming.getAttribute('aria-busy')).to.equal('false');
    expect(streaming.querySelector('p')).to.equal(intro);
    await frame();
    const log = $(el, '[part~="transcript"]')!;
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight);
    // Followed at the next resize observation: within the frame in Chromium, a frame or two later in Firefox and WebKit.
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight < 2, 'the transcript at its end', 1000);
    await expect(el).to.be.accessible();
  });
});

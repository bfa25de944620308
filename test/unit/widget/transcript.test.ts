// The transcript part (src/widget/parts/transcript.ts) as the element renders it: a streamed delta re-renders the
// streaming message and no other line, and in it only the markdown block that grew (issue 11 item 5).
import { expect, fixture } from '@open-wc/testing';
import { html, render } from 'lit';
import { DEFAULT_TEXTS, WIDGET_LABELS } from '../../../src/config/defaults.js';
import { PANEL_LABELS, type PanelLabels } from '../../../src/config/panel-labels.js';
import { mutatedNodes } from '../../helpers.js';
import type { LinkPolicy } from '../../../src/config/link-policy.js';
import type { TranscriptEntry } from '../../../src/widget/controllers/conversation.js';
import { prepareTranscript, transcript, type TranscriptOptions } from '../../../src/widget/parts/transcript.js';

const POLICY: LinkPolicy = { allowedHosts: ['example.com'], includeWww: false, allowHttp: false, pageUrl: 'https://shop.test/' };

/** An agent reply of markdown: a paragraph with a link, a list, and in every third one a code block. */
const reply = (i: number): string =>
  `Answer **${i}**: see [the docs](https://example.com/docs/${i}).\n\n- first\n- second${i % 3 ? '' : '\n\n```\nconst x = 1;\n```'}`;

/**
 * A transcript of 69 lines (three blocks of lines) as a conversation leaves it: agent replies (one rated), the
 * visitor's messages (one unsent), a client tool's status, a notice, and last an agent reply that is streaming.
 */
function conversation(): { entries: TranscriptEntry[]; streaming: TranscriptEntry } {
  const entries: TranscriptEntry[] = [];
  let key = 1;
  const add = (entry: Omit<TranscriptEntry, 'key'>): TranscriptEntry => {
    const full = { ...entry, key: key++ };
    entries.push(full);
    return full;
  };
  for (let i = 0; i < 33; i++) {
    add({ role: 'user', text: `question ${i}`, eventId: i, streaming: false, delivery: i === 5 ? 'unsent' : 'sent' });
    add({ role: 'agent', text: reply(i), eventId: i, streaming: false, ...(i === 7 ? { score: 'like' as const } : {}) });
  }
  add({ role: 'tool', text: 'lookup', eventId: null, streaming: false, tool: 'done' });
  add({ role: 'notice', text: '', eventId: null, streaming: false, notice: 'text_mode' });
  const streaming = add({ role: 'agent', text: 'The intro paragraph.\n\nThe second one', eventId: 99, streaming: true });
  return { entries, streaming };
}

/** Labels that count which of them are read. */
function countedLabels(): { texts: PanelLabels; read: Set<string> } {
  const read = new Set<string>();
  const texts = new Proxy({ ...PANEL_LABELS, ...DEFAULT_TEXTS, ...WIDGET_LABELS } as PanelLabels, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
  return { texts, read };
}

/** Options as the element passes them on each update: fresh callbacks every time. */
function options(entries: TranscriptEntry[], texts: PanelLabels, calls: string[] = [], tag = ''): TranscriptOptions {
  return {
    entries, texts, linkPolicy: POLICY, greeting: null, stripTags: true,
    onScroll: () => {},
    onRate: (entry, score) => calls.push(`${tag}rate ${entry.key} ${score}`),
    onResend: (entry) => calls.push(`${tag}resend ${entry.key}`),
    onCopyCode: (code) => calls.push(`${tag}copy ${code}`),
    transcriptRef: () => {},
  };
}

describe('transcript part', () => {
  it('re-renders only the streaming message on a delta, and in it only the block that grew', async () => {
    const { entries, streaming } = conversation();
    const { texts, read } = countedLabels();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    render(transcript(options(entries, texts)), container);
    const lines = [...container.querySelectorAll('.lines .message, .lines .notice, .lines .resend')];
    expect(lines, "69 lines and a resend button").to.have.length(70);
    const streamingLine = lines.at(-1)!;
    const intro = streamingLine.querySelector('p')!;
    expect(intro.textContent).to.equal('The intro paragraph.');

    read.clear();
    const mutated = await mutatedNodes(container, () => {
      streaming.text += ' grows by a few words';
      render(transcript(options(entries, texts)), container);
    });

    expect(streamingLine.querySelectorAll('p')[1]!.textContent).to.equal('The second one grows by a few words');
    expect(mutated.length, 'the delta changed the DOM').to.be.greaterThan(0);
    expect(mutated.filter((node) => !streamingLine.contains(node)), 'nodes changed outside the streaming message').to.deep.equal([]);
    expect(streamingLine.querySelector('p'), 'the finished first paragraph kept its node').to.equal(intro);
    expect([...container.querySelectorAll('.lines .message, .lines .notice, .lines .resend')], 'every line kept its element').to.deep.equal(lines);
    // No other line was rendered again: none of their labels (like, dislike, send again, notice, tool status) was read.
    expect([...read].filter((key) => key !== 'transcript')).to.deep.equal([]);
  });

  it('re-renders a line whose entry changed in place: delivery, rating, tool status, end of streaming', async () => {
    const { entries, streaming } = conversation();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const { texts } = countedLabels();
    render(transcript(options(entries, texts)), container);
    const rated = entries.find((e) => e.role === 'agent' && !e.score)!;
    const tool = entries.find((e) => e.role === 'tool')!;
    const unsent = entries.find((e) => e.delivery === 'unsent')!;
    rated.score = 'dislike';
    tool.tool = 'error';
    unsent.delivery = 'sent';
    streaming.streaming = false;
    render(transcript(options(entries, texts)), container);
    const agentLines = [...container.querySelectorAll('.message.agent')];
    const ratedLine = agentLines[entries.filter((e) => e.role === 'agent').indexOf(rated)]!;
    expect(ratedLine.nextElementSibling!.querySelector('[part~="dislike-button"]')!.getAttribute('aria-pressed'), 'its rating, right after it').to.equal('true');
    expect(container.querySelector('[part~="tool-status"]')!.textContent).to.equal(texts.agent_error);
    expect(container.querySelector('.message.unsent'), 'no unsent message left').to.equal(null);
    expect(container.querySelector('[part~="resend-button"]')).to.equal(null);
    expect(agentLines.at(-1)!.getAttribute('aria-busy')).to.equal('false');
  });

  it("calls the latest callbacks from lines that were not rendered again", async () => {
    const { entries } = conversation();
    const { texts } = countedLabels();
    const calls: string[] = [];
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    render(transcript(options(entries, texts, calls, 'first ')), container);
    render(transcript(options(entries, texts, calls, 'latest ')), container);
    container.querySelector<HTMLButtonElement>('[part~="resend-button"]')!.click();
    const unrated = [...container.querySelectorAll<HTMLButtonElement>('[part~="like-button"]')].find((b) => !b.disabled)!;
    unrated.click();
    const unsent = entries.find((e) => e.delivery === 'unsent')!;
    expect(calls).to.have.length(2);
    expect(calls[0]).to.equal(`latest resend ${unsent.key}`);
    expect(calls[1]).to.match(/^latest rate \d+ like$/);
  });

  it('keeps the other lines when one leaves the transcript (a message sent again)', async () => {
    const { entries } = conversation();
    const { texts } = countedLabels();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    render(transcript(options(entries, texts)), container);
    const before = [...container.querySelectorAll('.message')];
    const index = entries.findIndex((e) => e.delivery === 'unsent');
    const [removed] = entries.splice(index, 1);
    entries.push({ ...removed!, key: 1000, delivery: 'pending' });
    render(transcript(options(entries, texts)), container);
    const after = [...container.querySelectorAll('.message')];
    expect(after.at(-1)!.textContent!.trim()).to.equal(removed!.text);
    expect(after.slice(0, -1), 'the other lines kept their elements, in order').to.deep.equal(before.filter((_, i) => i !== index));
  });

  it("gives the service's first message the greeting's bubble: the same element and paragraph when the text is the greeting's", async () => {
    const { texts } = countedLabels();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const owner = {};
    const text = 'Hello! How can I *help*?';
    render(transcript({ ...options([], texts), greeting: { owner, text } }), container);
    const greeting = container.querySelector('.message.greeting')!;
    const paragraph = greeting.querySelector('p')!;
    expect(paragraph.innerHTML).to.equal('Hello! How can I <em>help</em>?');
    const first: TranscriptEntry = { key: 1, role: 'agent', text, eventId: 1, streaming: false };
    const mutated = await mutatedNodes(container, () => render(transcript(options([first], texts)), container));
    const line = container.querySelector('.block > .message.agent')!;
    expect(line, "the line is the greeting's bubble").to.equal(greeting);
    expect(line.classList.contains('greeting')).to.equal(false);
    expect(line.querySelector('p'), 'its paragraph was not rendered again').to.equal(paragraph);
    expect(mutated.filter((node) => line.contains(node) && node !== line), 'nothing inside the bubble changed').to.deep.equal([]);
    expect(container.querySelectorAll('.message'), 'one message: no greeting left beside it').to.have.length(1);
    expect(line.nextElementSibling!.matches('[part~="rating"]'), 'its like and dislike follow it').to.equal(true);
  });

  it("gives the greeting's bubble to a first message that says otherwise, its text replacing the greeting's", async () => {
    const { texts } = countedLabels();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    render(transcript({ ...options([], texts), greeting: { owner: {}, text: 'Hello!' } }), container);
    const greeting = container.querySelector('.message.greeting')!;
    const first: TranscriptEntry = { key: 1, role: 'agent', text: 'Welcome back, **Ada**.', eventId: 1, streaming: false };
    render(transcript(options([first], texts)), container);
    const line = container.querySelector('.block > .message.agent')!;
    expect(line).to.equal(greeting);
    expect(line.innerHTML.trim()).to.equal('<p>Welcome back, <strong>Ada</strong>.</p>');
    expect(container.querySelectorAll('.message')).to.have.length(1);
  });

  it("does not give the greeting's bubble to a visitor's first line, nor keep it past the first render with lines", async () => {
    const { texts } = countedLabels();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const owner = {};
    render(transcript({ ...options([], texts), greeting: { owner, text: 'Hello!' } }), container);
    const greeting = container.querySelector('.message.greeting')!;
    const user: TranscriptEntry = { key: 1, role: 'user', text: 'Hi', eventId: null, streaming: false, delivery: 'sent' };
    render(transcript(options([user], texts)), container);
    expect(greeting.isConnected, 'the greeting left').to.equal(false);
    const agent: TranscriptEntry = { key: 2, role: 'agent', text: 'Hello!', eventId: 1, streaming: false };
    render(transcript(options([user, agent], texts)), container);
    expect(container.querySelector('.message.agent'), 'a bubble of its own').to.not.equal(greeting);
    expect(container.querySelector('.message.agent')!.textContent!.trim()).to.equal('Hello!');
  });

  it('readies the lines once per page outside the document: the greeting, then a first message in its bubble and a reply', () => {
    const { texts } = countedLabels();
    const before = document.body.innerHTML;
    const into = prepareTranscript(texts, POLICY)!;
    expect(into, 'rendered').to.not.equal(null);
    expect(into.isConnected, 'outside the document').to.equal(false);
    expect(document.body.innerHTML, 'nothing added to the page').to.equal(before);
    expect(into.querySelectorAll('.block > .message.agent'), 'an agent line').to.have.length(1);
    expect(into.querySelector('.message.agent')!.classList.contains('greeting'), "the first message took the greeting's bubble").to.equal(false);
    expect(into.querySelectorAll('.message.greeting')).to.have.length(0);
    expect(into.querySelectorAll('.message.user'), "a visitor's line").to.have.length(1);
    expect(into.querySelectorAll('[part~="rating"]'), 'a like and dislike').to.have.length(1);
    expect(into.querySelector('.message.agent em'), 'through the markdown pipeline').to.not.equal(null);
    expect(prepareTranscript(texts, POLICY), 'once per page').to.equal(null);
  });
});

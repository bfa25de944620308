import { expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import { FollowTranscriptController } from '../../../src/widget/controllers/follow-transcript.js';
import { mountHost, type TestHost } from './host.js';

/** A host with a 100 px transcript of `lines` lines of 20 px each, followed by the controller. */
async function mountTranscript(lines: number): Promise<{ host: TestHost; transcript: HTMLElement; add: (n: number) => Promise<void> }> {
  let count = lines;
  const { host } = await mountHost((h) => {
    const follow = new FollowTranscriptController(h, '.transcript');
    h.content = () => html`<div class="transcript" style="height: 100px; overflow: auto" @scroll=${follow.onScroll}>
      ${Array.from({ length: count }, (_, i) => html`<p style="height: 20px; margin: 0">line ${i}</p>`)}
    </div>`;
    return follow;
  });
  const add = async (n: number): Promise<void> => {
    count += n;
    host.requestUpdate();
    await host.updateComplete;
  };
  return { host, transcript: host.shadowRoot!.querySelector<HTMLElement>('.transcript')!, add };
}

const atEnd = (t: HTMLElement): boolean => Math.abs(t.scrollHeight - t.clientHeight - t.scrollTop) <= 1;

/** Scrolls the transcript to `top` as a visitor would, and waits for its scroll event. */
async function scrollTo(transcript: HTMLElement, top: number): Promise<void> {
  const scrolled = oneEvent(transcript, 'scroll');
  transcript.scrollTop = top;
  await scrolled;
}

describe('FollowTranscriptController', () => {
  it('keeps the transcript scrolled to the end as lines come', async () => {
    const { transcript, add } = await mountTranscript(20);
    expect(transcript.scrollHeight).to.equal(400);
    expect(atEnd(transcript)).to.equal(true);
    await add(5);
    expect(transcript.scrollHeight).to.equal(500);
    expect(atEnd(transcript)).to.equal(true);
  });

  it('stays where the visitor scrolled up to, until they scroll back to the end', async () => {
    const { transcript, add } = await mountTranscript(20);
    await scrollTo(transcript, 40);
    await add(5);
    expect(transcript.scrollTop).to.equal(40);
    expect(atEnd(transcript)).to.equal(false);

    await scrollTo(transcript, transcript.scrollHeight - transcript.clientHeight - 10); // within 24 px of the end
    await add(5);
    expect(atEnd(transcript)).to.equal(true);
  });
});

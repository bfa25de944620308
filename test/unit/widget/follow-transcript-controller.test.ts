import { expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import { FollowTranscriptController } from '../../../src/widget/controllers/follow-transcript.js';
import { elementRef } from '../../../src/widget/parts/element-ref.js';
import { mountHost, type TestHost } from './host.js';

/** Resolves after the next frame has been rendered, with its resize observations (the controller follows then). */
const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/**
 * A host with a 100 px transcript of `lines` lines of 20 px each, followed by the controller; `add(n)` adds lines and
 * waits for the update (not for the frame, when the controller follows).
 */
async function mountTranscript(lines: number): Promise<{ host: TestHost; transcript: HTMLElement; add: (n: number) => Promise<void> }> {
  let count = lines;
  const { host } = await mountHost((h) => {
    const follow = new FollowTranscriptController(h);
    h.content = () => html`<div class="transcript" style="height: 100px; overflow: auto" @scroll=${follow.onScroll} ${elementRef(follow.transcriptRef)}>
      ${Array.from({ length: count }, (_, i) => html`<p style="height: 20px; margin: 0">line ${i}</p>`)}
    </div>`;
    return follow;
  });
  const add = async (n: number): Promise<void> => {
    count += n;
    host.requestUpdate();
    await host.updateComplete;
  };
  await frame();
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
    await frame();
    expect(transcript.scrollHeight).to.equal(500);
    expect(atEnd(transcript)).to.equal(true);
  });

  it('follows a line that grows without an update of the host (a picture that loads)', async () => {
    const { transcript } = await mountTranscript(20);
    transcript.lastElementChild!.setAttribute('style', 'height: 120px; margin: 0');
    await frame();
    expect(transcript.scrollHeight).to.equal(500);
    expect(atEnd(transcript)).to.equal(true);
  });

  it('keeps following when the content grew between its own scroll and that scroll\'s event', async () => {
    const { transcript, add } = await mountTranscript(20);
    await add(5);
    await frame(); // followed: the event of that scroll comes with the next frame
    await add(5); // 100 px more before it does
    await frame();
    await frame();
    expect(transcript.scrollHeight).to.equal(600);
    expect(atEnd(transcript), 'still following').to.equal(true);
  });

  it('scrolls in the frame, after layout, not in the update of the host', async () => {
    const { transcript, add } = await mountTranscript(20);
    const top = transcript.scrollTop;
    await add(5);
    expect(transcript.scrollTop, 'not scrolled in the update').to.equal(top);
    await frame();
    expect(atEnd(transcript)).to.equal(true);
  });

  it('stays where the visitor scrolled up to, until they scroll back to the end', async () => {
    const { transcript, add } = await mountTranscript(20);
    await scrollTo(transcript, 40);
    await add(5);
    await frame();
    expect(transcript.scrollTop).to.equal(40);
    expect(atEnd(transcript)).to.equal(false);

    await scrollTo(transcript, transcript.scrollHeight - transcript.clientHeight - 10); // within 24 px of the end
    await add(5);
    await frame();
    expect(atEnd(transcript)).to.equal(true);
  });
});

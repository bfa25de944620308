import { aTimeout, expect } from '@open-wc/testing';
import { MAX_TEXT_LENGTH } from '../../../src/config/defaults.js';
import { FeedbackController } from '../../../src/widget/controllers/feedback.js';
import { captureConsole } from '../../helpers.js';
import { FakeFetch, detach, mountHost, type TestHost } from './host.js';

const SERVER = 'https://service.test';

/** A host with a feedback controller posting through a fake fetch. */
async function mountFeedback(): Promise<{ host: TestHost; feedback: FeedbackController; network: FakeFetch }> {
  const network = new FakeFetch();
  const { host, made: feedback } = await mountHost((h) => new FeedbackController(h, () => null, { fetch: network.fetch }));
  return { host, feedback, network };
}

/**
 * Rates `conversationId`, submits `comment` and answers the post with `status` and `body`, the console captured:
 * `result` is the JSON body that was posted.
 */
async function rateAndSubmit(
  { feedback, network }: { feedback: FeedbackController; network: FakeFetch },
  conversationId: string,
  rating: number,
  comment: string,
  status = 200,
  body: unknown = {},
): Promise<{ result: Record<string, unknown>; errors: string[] }> {
  feedback.rate(conversationId, rating);
  return captureConsole(async () => {
    const sent = feedback.submit(SERVER, comment);
    const posted = JSON.parse(network.last.init!.body as string) as Record<string, unknown>;
    network.last.respond(status, body);
    await sent;
    return posted;
  });
}

describe('FeedbackController', () => {
  it('keeps one step per conversation: rate → comment → back to rate; another conversation starts at rate', async () => {
    const { host, feedback } = await mountFeedback();
    expect(feedback.step('conv_1')).to.equal('rate');
    feedback.rate('conv_1', 4);
    expect(host.isUpdatePending).to.equal(true);
    expect(feedback.step('conv_1')).to.equal('comment');
    expect(feedback.step('conv_2')).to.equal('rate');
    feedback.back();
    expect(feedback.step('conv_1')).to.equal('rate');
  });

  it('posts the rating with the trimmed comment and shows thanks', async () => {
    const { feedback, network } = await mountFeedback();
    feedback.rate('conv 1', 5);
    const sent = feedback.submit(SERVER, '  Quick and kind.  ');
    expect(network.calls).to.have.length(1);
    expect(network.last.url).to.equal(`${SERVER}/v1/voiceai/conversations/conv%201/feedback`);
    expect(network.last.init).to.deep.include({ method: 'POST', credentials: 'omit' });
    expect(JSON.parse(network.last.init!.body as string)).to.deep.equal({ rating: 5, comment: 'Quick and kind.' });
    expect(feedback.step('conv 1'), 'still on the comment while posting').to.equal('comment');
    network.last.respond(200, {});
    await sent;
    expect(feedback.step('conv 1')).to.equal('thanks');
  });

  it('leaves out an empty comment and cuts a long one to MAX_TEXT_LENGTH characters', async () => {
    const mounted = await mountFeedback();
    expect((await rateAndSubmit(mounted, 'conv_1', 2, '   ')).result).to.deep.equal({ rating: 2 });
    const long = await rateAndSubmit(mounted, 'conv_2', 3, 'x'.repeat(MAX_TEXT_LENGTH + 50));
    expect(long.result.comment).to.have.length(MAX_TEXT_LENGTH);
    expect(mounted.feedback.step('conv_2')).to.equal('thanks');
  });

  it('shows failed and tells the console when the post fails, never throwing', async () => {
    const mounted = await mountFeedback();
    const { errors } = await rateAndSubmit(mounted, 'conv_1', 1, 'too slow', 422, {
      detail: [{ loc: ['body', 'rating'], msg: 'bad rating', type: 'value_error' }],
    });
    expect(mounted.feedback.step('conv_1')).to.equal('failed');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('could not send the feedback');
    expect(errors[0]).to.contain('HTTP 422: bad rating');
  });

  it('aborts a pending post when the host leaves, without a console error or a step change', async () => {
    const { host, feedback, network } = await mountFeedback();
    feedback.rate('conv_1', 4);
    const { errors, warnings } = await captureConsole(async () => {
      const sent = feedback.submit(SERVER, 'bye');
      detach(host);
      await sent;
      await aTimeout(0);
    });
    expect(network.last.signal.aborted).to.equal(true);
    expect(errors).to.deep.equal([]);
    expect(warnings).to.deep.equal([]);
    expect(feedback.step('conv_1')).to.equal('comment');
  });
});

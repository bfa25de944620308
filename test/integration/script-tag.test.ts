/**
 * The built script-tag bundle (dist/voice-agent-widget.js, one IIFE) loaded from the service's origin into a page
 * of another origin, as a site owner embeds it: no server-url, so the widget talks to the script's origin.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { serviceUrl } from '/__service__.js';
import { until } from '../helpers.js';

async function embed(body: string): Promise<{ frame: HTMLIFrameElement; win: Window & typeof globalThis; errors: string[] }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 800px; height: 700px; border: 0';
  const errors: string[] = [];
  frame.srcdoc = `<!doctype html><html lang="en"><head><title>embed</title></head><body>${body}</body></html>`;
  const loaded = oneEvent(frame, 'load');
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as Window & typeof globalThis;
  win.addEventListener('error', (e) => errors.push(e.message));
  return { frame, win, errors };
}

describe('script-tag bundle from another origin', () => {
  it('registers the element once, even loaded twice, and holds a conversation with the script origin', async () => {
    const script = `<script src="${serviceUrl}/voice-agent-widget.js"></script>`;
    const { frame, win, errors } = await embed(`${script}${script}<voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      expect(new URL(serviceUrl).origin).to.not.equal(location.origin);
      expect(win.customElements.get('voice-agent-widget')).to.be.a('function');
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      await until(() => root().querySelector('.launcher:not([disabled])'), 'config read from the script origin');
      (root().querySelector('.launcher') as HTMLButtonElement).click();
      await until(() => root().querySelector('input'), 'panel');
      (root().querySelector('input') as HTMLInputElement).focus();
      await sendKeys({ type: 'hello from an embed' });
      await sendKeys({ press: 'Enter' });
      await until(
        () => [...root().querySelectorAll('.message.agent')].some((m) => m.textContent!.includes('You said: hello from an embed')),
        'the agent answered over the socket',
      );
      expect(errors).to.deep.equal([]);
      expect(typeof (win as unknown as Record<string, unknown>)['VoiceAgentWidget']).to.equal('undefined');
    } finally {
      frame.remove();
    }
  });
});

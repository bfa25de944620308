/**
 * Removing the element releases what it holds (DEVELOPERS.md rule 5; DESIGN.md rule 4): mount and remove it 100 times,
 * each time with a real conversation on the reference service, and count what is left: sockets, media-query listeners,
 * timers. The browser's own WebSocket, matchMedia and setTimeout are used; they are only counted on the way through.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { serviceUrl } from '/__service__.js';
import '../../src/define.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { until } from '../helpers.js';

describe('mount and remove 100 times', () => {
  it('leaves no open socket, no media-query listener and no pending timer behind', async function () {
    this.timeout(60000);
    const sockets: WebSocket[] = [];
    const NativeWebSocket = window.WebSocket;
    const listeners = new Set<EventListenerOrEventListenerObject>();
    const { addEventListener: addMq, removeEventListener: removeMq } = MediaQueryList.prototype;
    const pending = new Map<number, number>();
    const { setTimeout: nativeSetTimeout, clearTimeout: nativeClearTimeout } = window;
    window.WebSocket = class extends NativeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    };
    MediaQueryList.prototype.addEventListener = function (this: MediaQueryList, type: string, listener: EventListenerOrEventListenerObject) {
      listeners.add(listener);
      return addMq.call(this, type, listener);
    } as typeof addMq;
    MediaQueryList.prototype.removeEventListener = function (this: MediaQueryList, type: string, listener: EventListenerOrEventListenerObject) {
      listeners.delete(listener);
      return removeMq.call(this, type, listener);
    } as typeof removeMq;
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
      const id = nativeSetTimeout(
        (...a: unknown[]) => {
          pending.delete(id);
          if (typeof handler === 'function') handler(...a);
        },
        delay,
        ...args,
      );
      pending.set(id, delay ?? 0);
      return id;
    }) as typeof setTimeout;
    window.clearTimeout = ((id?: number) => {
      if (id !== undefined) pending.delete(id);
      nativeClearTimeout(id);
    }) as typeof clearTimeout;
    try {
      // A hundred fixtures in one test on purpose: what is counted is what mounting and removing many times leaves
      // behind. Only one is on the page at a time (each round removes its element).
      for (let round = 0; round < 100; round += 1) {
        // Each round a first visit: the last round's conversation, kept for the next page, would be shown again.
        sessionStorage.clear();
        const el = await fixture<VoiceAgentWidget>(html`<voice-agent-widget agent-id="agent_minimal" server-url=${serviceUrl}></voice-agent-widget>`);
        const root = el.shadowRoot!;
        await until(() => root.querySelector('.launcher:not([disabled])'), 'ready');
        (root.querySelector('.launcher') as HTMLButtonElement).click();
        await until(() => root.querySelector('.start'), 'panel open');
        (root.querySelector('.start') as HTMLButtonElement).click();
        await until(() => root.querySelector('.end'), 'conversation started');
        el.remove();
      }
      await until(() => sockets.every((s) => s.readyState === WebSocket.CLOSED), 'every socket closed', 5000);
      expect(sockets).to.have.length(100);
      expect(listeners.size, 'media-query listeners left').to.equal(0);
      // Timers still pending that would fire later: the widget's handshake timeout (10 s) or copied-label timer.
      await new Promise((resolve) => nativeSetTimeout(resolve, 50));
      expect([...pending.values()].filter((delay) => delay >= 1000), 'long timers left').to.deep.equal([]);
    } finally {
      window.WebSocket = NativeWebSocket;
      MediaQueryList.prototype.addEventListener = addMq;
      MediaQueryList.prototype.removeEventListener = removeMq;
      window.setTimeout = nativeSetTimeout;
      window.clearTimeout = nativeClearTimeout;
    }
  });
});
